#include "core/cmake_cache.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

bool is_absolute(std::string_view v, PathStyle style) {
    if (style == PathStyle::windows)
        return (v.size() >= 3 && v[1] == ':' && (v[2] == '\\' || v[2] == '/')) || v.starts_with("\\\\") ||
               v.starts_with("//");
    return v.starts_with("/");
}

bool under(const std::string& value, const std::filesystem::path& root, PathStyle style) {
    if (path_entry_under(value, fsx::to_utf8(root), style)) return true;
    // /usr/local/cuda/bin/nvcc for a pair in /usr/local/cuda-12.6 (a link): the same files.
    std::error_code ec1, ec2;
    auto v = std::filesystem::weakly_canonical(fsx::from_utf8(value), ec1);
    auto r = std::filesystem::weakly_canonical(root, ec2);
    return !ec1 && !ec2 && path_entry_under(fsx::to_utf8(v), fsx::to_utf8(r), style);
}

std::filesystem::path shown(const std::filesystem::path& p, const std::filesystem::path& base) {
    auto rel = p.lexically_relative(base);
    return rel.empty() || fsx::to_utf8(rel).starts_with("..") ? p : rel;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> cmake_cache_cuda_paths(const std::string& text, PathStyle style) {
    std::vector<std::pair<std::string, std::string>> out;
    // Each entry is NAME:TYPE=VALUE on a line of its own; // and # start comments.
    for (auto line : str::split(text, '\n')) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#' || line.starts_with("//")) continue;
        auto colon = line.find(':');
        auto eq = line.find('=');
        if (colon == std::string::npos || eq == std::string::npos || colon > eq) continue;
        auto name = line.substr(0, colon);
        if (name != "CMAKE_CUDA_COMPILER" && name != "CUDA_TOOLKIT_ROOT_DIR" && !name.starts_with("CUDAToolkit_"))
            continue;
        auto value = line.substr(eq + 1);
        if (value.find(';') != std::string::npos || !is_absolute(value, style)) continue;
        out.emplace_back(name, value);
    }
    return out;
}

std::vector<StaleCmakeCache> stale_cmake_caches(const std::filesystem::path& dir,
                                                const std::filesystem::path& toolkit_root, PathStyle style) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files = {dir / "CMakeCache.txt"};
    std::error_code ec;
    size_t seen = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && seen < 64; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (!str::starts_with_icase(name, "build")) continue;
        ++seen;
        std::error_code dir_ec;
        if (it->is_directory(dir_ec)) files.push_back(it->path() / "CMakeCache.txt");
    }
    std::vector<StaleCmakeCache> out;
    for (const auto& f : files) {
        auto text = fsx::read_file(f, 4u << 20);
        if (!text) continue;
        for (const auto& [name, value] : cmake_cache_cuda_paths(*text, style))
            if (!under(value, toolkit_root, style)) {
                out.push_back({f, name, value});
                break;
            }
    }
    return out;
}

std::string describe(const StaleCmakeCache& s, const std::filesystem::path& relative_to) {
    return fsx::to_utf8(shown(s.file, relative_to)) + " was configured for another toolkit (" + s.variable + "=" +
           s.value + ")";
}

std::string stale_cache_fix(const StaleCmakeCache& s, const std::filesystem::path& relative_to) {
    auto build = fsx::to_utf8(shown(s.file.parent_path(), relative_to));
    if (build.empty()) build.push_back('.');  // not = ".": GCC 12 -O3 warns (false -Wrestrict)
    return "CMake keeps the toolkit it found first: reconfigure with `cmake --fresh -S <source> -B " + build +
           "` (or delete " + build + "/CMakeCache.txt and " + build + "/CMakeFiles)";
}

}  // namespace cudaenv
