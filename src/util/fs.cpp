#include "util/fs.hpp"

#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv::fsx {

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

bool is_safe_relative(std::string_view p) {
    if (p.empty() || p.front() == '/' || p.find('\\') != std::string_view::npos || p.find(':') != std::string_view::npos)
        return false;
    for (const auto& part : str::split(p, '/'))
        if (part.empty() || part == "." || part == "..") return false;
    return true;
}

}  // namespace cudaenv::fsx
