#include "util/fs.hpp"

#include <fstream>

#include "util/error.hpp"

namespace cudaenv::fsx {

std::optional<std::string> read_file(const fs::path& p, size_t max_bytes) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::string out;
    char buf[8192];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<size_t>(in.gcount()));
        if (out.size() > max_bytes) return std::nullopt;
    }
    if (in.bad()) return std::nullopt;
    return out;
}

bool is_dir(const fs::path& p) {
    std::error_code ec;
    return fs::is_directory(p, ec);
}

bool is_file(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
}

bool exists(const fs::path& p) {
    std::error_code ec;
    return fs::exists(p, ec);
}

fs::path absolute_normal(const fs::path& p) {
    // What cudaenv wrote itself is absolute and normal already, and this runs
    // for every adopted folder on every switch: skip the work for it.
    if (is_absolute_normal(p)) return p;
    std::error_code ec;
    auto abs = fs::absolute(p, ec);
    if (ec) abs = p;
    auto n = abs.lexically_normal();
    // "a/b/" normalises to "a/b/" with an empty filename; drop it.
    if (!n.has_filename() && n.has_relative_path()) n = n.parent_path();
    return n;
}

}  // namespace cudaenv::fsx
