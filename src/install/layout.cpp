#include "install/layout.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "core/cudalibs.hpp"
#include "core/detect.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::install {

namespace {

constexpr std::string_view kPlatformNames[] = {"linux-x86_64", "linux-sbsa", "linux-aarch64", "linux-ppc64le",
                                               "windows-x86_64"};
// The longest version text Version::parse takes: four numbers of nine digits.
constexpr size_t kMaxVersionText = 4 * 9 + 3;

bool is_version_char(char c) { return (c >= '0' && c <= '9') || c == '.'; }

// Version::parse for text of digits and dots only ("12.6.3"), nothing else.
std::optional<Version> plain_version(std::string_view s) {
    if (s.empty() || s.size() > kMaxVersionText) return std::nullopt;
    for (char c : s)
        if (!is_version_char(c)) return std::nullopt;
    return Version::parse(s);
}

}  // namespace

std::optional<ArchiveName> parse_archive_name(std::string_view name) {
    // <component>-<platform>-<version>[_cuda<N>]-archive.<tar.xz|zip>
    ArchiveName a;
    for (std::string_view ext : {"tar.xz", "zip"})
        if (name.ends_with(std::string("-archive.") + std::string(ext))) {
            a.extension = ext;
            name.remove_suffix(9 + ext.size());
            break;
        }
    auto dash = name.find('-');
    // NVIDIA's component names are short ("libcusparse_lt"): 64 is none of theirs.
    if (a.extension.empty() || dash == 0 || dash == std::string_view::npos || dash > 64) return std::nullopt;
    a.component = name.substr(0, dash);
    for (char c : a.component)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return std::nullopt;
    name.remove_prefix(dash + 1);
    for (auto p : kPlatformNames)
        if (name.size() > p.size() && name.starts_with(p) && name[p.size()] == '-') a.platform = p;
    if (a.platform.empty()) return std::nullopt;
    name.remove_prefix(a.platform.size() + 1);
    if (auto cuda = name.find("_cuda"); cuda != std::string_view::npos) {
        auto major = name.substr(cuda + 5);
        if (major.size() > 9 || !str::parse_int(major, a.cuda_major) || a.cuda_major == 0) return std::nullopt;
        name = name.substr(0, cuda);
    }
    auto v = plain_version(name);
    if (!v) return std::nullopt;
    a.version = *v;
    if (a.is_cudnn() != (a.cuda_major != 0)) return std::nullopt;  // cuDNN names carry _cuda<N>, others do not
    return a;
}

std::optional<Version> manifest_release(std::string_view name) {
    constexpr std::string_view prefix = "redistrib_", suffix = ".json";
    if (!name.starts_with(prefix) || !name.ends_with(suffix) || name.size() < prefix.size() + suffix.size())
        return std::nullopt;
    return plain_version(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size()));
}

std::vector<Version> releases_from_listing(std::string_view html) {
    constexpr std::string_view prefix = "redistrib_";
    std::set<Version, std::greater<>> found;
    for (size_t at = html.find(prefix); at != std::string_view::npos; at = html.find(prefix, at)) {
        // The run of digits and dots after the prefix, scanned once: "12.6.3." before "json".
        size_t begin = at + prefix.size(), end = begin;
        while (end < html.size() && is_version_char(html[end])) ++end;
        at = end;
        if (end - begin < 2 || html[end - 1] != '.' || html.substr(end, 4) != "json") continue;
        if (auto v = plain_version(html.substr(begin, end - 1 - begin))) {
            found.insert(*v);
            if (found.size() > kMaxListedReleases)
                throw Error("the mirror's listing names more than " + std::to_string(kMaxListedReleases) + " releases",
                            "this is no NVIDIA redist listing: check the mirror URL");
        }
    }
    return {found.begin(), found.end()};
}

std::vector<std::string> cudnn_required_libraries(int major, bool windows) {
    return cudalibs::cudnn_names(major, windows);
}

namespace {

bool is_windows_platform(const std::string& platform) { return platform.starts_with("windows"); }

// A file that exists once symlinks are followed (a dangling .so.8 link does not count).
bool resolves_to_file(const fs::path& p) { return fsx::is_file(p); }

}  // namespace

void validate_cudnn(const fs::path& dir, const Version& version, const std::string& platform) {
    bool windows = is_windows_platform(platform);
    auto header = fsx::read_file(dir / "include" / "cudnn_version.h", 1 << 20);
    if (!header) throw Error("incomplete cuDNN archive: include/cudnn_version.h is missing");
    auto hv = cudnn_version_from_header(*header);
    if (!hv) throw Error("incomplete cuDNN archive: include/cudnn_version.h has no CUDNN_MAJOR/MINOR/PATCHLEVEL");
    if (hv->prefix(3) != version.prefix(3))
        throw Error("cuDNN archive mismatch: its name says " + version.str() + " but include/cudnn_version.h says " +
                        hv->str(),
                    "the archive was renamed or repacked; get it again from NVIDIA");
    const auto lib_dirs = cudalibs::cudnn_lib_dirs(dir);
    std::vector<std::string> missing;
    for (const auto& name : cudnn_required_libraries(version.major(), windows)) {
        bool found = false;
        for (const auto& d : lib_dirs) found = found || resolves_to_file(d / name);
        if (!found) missing.push_back(name);
    }
    if (!missing.empty())
        throw Error("incomplete cuDNN " + version.str() + " archive: missing " + str::join(missing, ", "),
                    "the archive is damaged or not an NVIDIA cuDNN archive");
}

void validate_toolkit(const fs::path& dir, const std::map<std::string, std::string>& components,
                      const std::string& platform) {
    bool windows = is_windows_platform(platform);
    if (components.count("cuda_cudart")) {
        bool found = false;
        std::error_code ec;
        auto dirs = cudalibs::toolkit_lib_dirs(dir);
        for (auto& d : cudalibs::toolkit_dll_dirs(dir)) dirs.push_back(std::move(d));
        for (const auto& d : dirs) {
            for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
                if (cudalibs::is_cudart(fsx::to_utf8(it->path().filename()), windows) && resolves_to_file(it->path()))
                    found = true;
            }
            ec.clear();
        }
        if (!found) throw Error("incomplete cuda_cudart archive: no CUDA runtime library in lib/ or bin/");
    }
    if (components.count("cuda_nvcc") && !resolves_to_file(dir / "bin" / (windows ? "nvcc.exe" : "nvcc")))
        throw Error("incomplete cuda_nvcc archive: bin/nvcc is missing");
}

void place_component(const std::string& component, const fs::path& dest) {
    if (component != "visual_studio_integration") return;
    // The archive holds visual_studio_integration\MSBuildExtensions\ (an
    // archive with MSBuildExtensions\ at its top is taken the same way).
    const auto extras = dest / "extras";
    for (const auto& [from, to] : {std::pair{dest / "visual_studio_integration", extras / "visual_studio_integration"},
                                   std::pair{dest / "MSBuildExtensions",
                                             extras / "visual_studio_integration" / "MSBuildExtensions"}}) {
        if (!fsx::is_dir(from)) continue;
        fs::create_directories(to.parent_path());
        fs::rename(from, to);
        return;
    }
}

std::string toolkit_version_json(const std::string& cuda_version, const std::map<std::string, ComponentInfo>& components) {
    nlohmann::ordered_json j;
    j["cuda"] = {{"name", "CUDA SDK"}, {"version", cuda_version}};
    for (const auto& [key, info] : components) j[key] = {{"name", info.name}, {"version", info.version}};
    return j.dump(4) + "\n";
}

std::map<std::string, ComponentInfo> read_version_json_components(const fs::path& toolkit_dir) {
    std::map<std::string, ComponentInfo> out;
    auto text = fsx::read_file(toolkit_dir / "version.json", 1 << 20);
    if (!text) return out;
    auto j = parse_json(*text);
    if (!j.is_object()) return out;
    for (const auto& [key, v] : j.items()) {
        if (key == "cuda" || !v.is_object()) continue;
        ComponentInfo info;
        if (v.contains("name") && v["name"].is_string()) info.name = v["name"].get<std::string>();
        if (v.contains("version") && v["version"].is_string()) info.version = v["version"].get<std::string>();
        out[key] = info;
    }
    return out;
}

}  // namespace cudaenv::install
