#include "util/cache_file.hpp"

#include <vector>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"

namespace cudaenv {

void save_cache_file(const std::filesystem::path& file, std::string_view text) {
    if (!fsx::is_dir(file.parent_path().parent_path())) return;
    std::error_code ec;
    std::filesystem::create_directories(file.parent_path(), ec);
    try {
        fsx::write_file_atomic(file, text, fsx::Durability::cache);
    } catch (const Error&) {
        // a store that cannot be written (a shared read-only one) keeps no cache
    }
}

void load_cache_index(const std::filesystem::path& file, std::string_view header, size_t max_bytes, std::string& text,
                      std::map<std::string, std::string_view>& entries) {
    auto read = fsx::read_file(file, max_bytes);
    if (!read || !read->starts_with(header)) return;  // absent, or another format: an empty cache
    text = std::move(*read);
    // Only the ids are looked at here; a record is decoded when asked for.
    records::Reader r(std::string_view(text).substr(header.size()));
    std::vector<std::string_view> fields;
    std::string_view raw;
    while (r.next(fields, &raw))
        if (!fields.empty()) entries[std::string(fields[0])] = raw;
    if (r.damaged()) entries.clear();  // a torn file: work it out again
}

}  // namespace cudaenv
