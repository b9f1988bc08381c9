#include "util/cache_file.hpp"

#include "util/error.hpp"
#include "util/fs.hpp"

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

}  // namespace cudaenv
