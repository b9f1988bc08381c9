#include "core/layout/layout.hpp"

#include <algorithm>
#include <array>

#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::layout {

namespace {

constexpr std::array<std::pair<ToolkitLayout, std::string_view>, 4> toolkit_names = {{
    {ToolkitLayout::debian, "debian"},
    {ToolkitLayout::pip, "pip"},
    {ToolkitLayout::runtime_only, "runtime-only"},
    {ToolkitLayout::standard, "standard"},
}};
constexpr std::array<std::pair<CudnnLayout, std::string_view>, 5> cudnn_names = {{
    {CudnnLayout::installer, "installer"},
    {CudnnLayout::pip, "pip"},
    {CudnnLayout::system, "system"},
    {CudnnLayout::archive, "archive"},
    {CudnnLayout::flat, "flat"},
}};

template <class L, size_t N>
std::string_view name_of(const std::array<std::pair<L, std::string_view>, N>& names, L l) {
    for (const auto& [k, v] : names)
        if (k == l) return v;
    return {};
}

template <class L, size_t N>
std::optional<L> parse(const std::array<std::pair<L, std::string_view>, N>& names, std::string_view s) {
    for (const auto& [k, v] : names)
        if (v == s) return k;
    return std::nullopt;
}

}  // namespace

std::string_view name(ToolkitLayout l) { return name_of(toolkit_names, l); }
std::string_view name(CudnnLayout l) { return name_of(cudnn_names, l); }
std::optional<ToolkitLayout> toolkit_layout(std::string_view s) { return parse(toolkit_names, s); }
std::optional<CudnnLayout> cudnn_layout(std::string_view s) { return parse(cudnn_names, s); }

const std::vector<const ToolkitRecognizer*>& toolkit_recognizers() {
    static const std::vector<const ToolkitRecognizer*> list = {&toolkit_debian, &toolkit_pip, &toolkit_runtime_only,
                                                               &toolkit_standard};
    return list;
}

const std::vector<const CudnnRecognizer*>& cudnn_recognizers() {
    static const std::vector<const CudnnRecognizer*> list = {&cudnn_installer, &cudnn_pip, &cudnn_system,
                                                             &cudnn_archive, &cudnn_flat};
    return list;
}

const ToolkitRecognizer& recognize_toolkit(const fs::path& root) {
    for (const auto* r : toolkit_recognizers())
        if (r->recognizes(root)) return *r;
    return toolkit_standard;
}

const CudnnRecognizer& recognize_cudnn(const fs::path& root, const std::string& variant) {
    for (const auto* r : cudnn_recognizers())
        if (r->recognizes(root, variant)) return *r;
    return cudnn_flat;
}

const ToolkitRecognizer& recognizer(ToolkitLayout l) {
    for (const auto* r : toolkit_recognizers())
        if (r->layout == l) return *r;
    return toolkit_standard;
}

const CudnnRecognizer& recognizer(CudnnLayout l) {
    for (const auto* r : cudnn_recognizers())
        if (r->layout == l) return *r;
    return cudnn_flat;
}

std::vector<std::string> list_names(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(fsx::to_utf8(it->path().filename()));
    return out;
}

bool is_system_lib_dir(const fs::path& p) {
    // Normalized once: this runs for every library folder of every detection.
    static const std::vector<fs::path> system = [] {
        std::vector<fs::path> out;
        for (const auto& s : platform::system_library_dirs()) out.push_back(fsx::absolute_normal(s));
        return out;
    }();
    const auto n = fsx::absolute_normal(p);
    return std::find(system.begin(), system.end(), n) != system.end();
}

std::vector<fs::path> toolkit_lib_dirs(const fs::path& root) {
    auto dirs = cudalibs::toolkit_lib_dirs(root);
    dirs.push_back(root);
    return dirs;
}

std::vector<fs::path> toolkit_headers(const fs::path& root) {
    return {root / "include" / "cuda_runtime_api.h", root / "targets" / "x86_64-linux" / "include" / "cuda_runtime_api.h",
            root / "include" / "cuda.h"};
}

std::vector<fs::path> cudnn_lib_dirs(const fs::path& root) {
    auto dirs = cudalibs::cudnn_lib_dirs(root);
    dirs.push_back(root);
    return dirs;
}

std::vector<fs::path> cudnn_include_dirs(const fs::path& root) {
    return {root / "include", root / "include" / "x86_64-linux-gnu"};
}

std::vector<fs::path> none() { return {}; }

namespace {

// "<prefix>_cu<N>-<version>.dist-info" (either case) as {N, version}; a
// plain scan, bounded by the name: a folder name is the user's, and
// std::regex's matcher recurses once per character.
std::optional<std::pair<std::string_view, std::string_view>> dist_info_parts(std::string_view name,
                                                                             std::string_view prefix) {
    constexpr std::string_view tail = ".dist-info";
    const std::string head = std::string(prefix) + "_cu";
    if (name.size() < head.size() + tail.size() || !str::starts_with_icase(name, head) ||
        !str::iequals_ascii(name.substr(name.size() - tail.size()), tail))
        return std::nullopt;
    auto mid = name.substr(head.size(), name.size() - head.size() - tail.size());
    auto dash = mid.find('-');
    if (dash == std::string_view::npos) return std::nullopt;
    auto major = mid.substr(0, dash), version = mid.substr(dash + 1);
    if (!str::is_digits(major) || version.empty() ||
        version.find_first_not_of("0123456789.") != std::string_view::npos)
        return std::nullopt;
    return std::pair{major, version};
}

}  // namespace

std::optional<std::pair<Version, int>> pip_dist_info(const fs::path& pkg_root, const std::string& prefix) {
    if (fsx::to_utf8(pkg_root.parent_path().filename()) != "nvidia") return std::nullopt;
    const auto site = pkg_root.parent_path().parent_path();
    for (const auto& n : list_names(site)) {
        auto parts = dist_info_parts(n, prefix);
        if (!parts) continue;
        auto v = Version::parse(parts->second);
        if (!v) return std::nullopt;
        int major = 0;
        str::parse_int(parts->first, major);
        return std::make_pair(*v, major);
    }
    return std::nullopt;
}

}  // namespace cudaenv::layout
