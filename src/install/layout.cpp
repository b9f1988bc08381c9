#include "install/layout.hpp"

#include <nlohmann/json.hpp>
#include <regex>

#include "core/cudalibs.hpp"
#include "core/detect.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::install {

std::optional<ArchiveName> parse_archive_name(const std::string& file_name) {
    static const std::regex re(
        R"(([a-z0-9_]+)-(linux-x86_64|linux-sbsa|linux-aarch64|linux-ppc64le|windows-x86_64)-([0-9]+(?:\.[0-9]+){0,3})(?:_cuda([0-9]+))?-archive\.(tar\.xz|zip))");
    std::smatch m;
    if (!std::regex_match(file_name, m, re)) return std::nullopt;
    ArchiveName a;
    a.component = m[1].str();
    a.platform = m[2].str();
    auto v = Version::parse(m[3].str());
    if (!v) return std::nullopt;
    a.version = *v;
    if (m[4].matched) a.cuda_major = std::stoi(m[4].str());
    a.extension = m[5].str();
    if (a.is_cudnn() != (a.cuda_major != 0)) return std::nullopt;  // cuDNN names carry _cuda<N>, others do not
    return a;
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
