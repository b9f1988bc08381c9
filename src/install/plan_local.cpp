// plan_archives(): `cudaenv install <archive>...`, archives given as files.
#include <spdlog/spdlog.h>

#include <set>

#include "install/plan.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// A redistrib manifest next to local archives (an offline mirror's layout:
// <mirror>/cuda/redist/redistrib_X.json with archives in <component>/<platform>/).
struct NearbyEntry {
    std::string release_label;
    Component component;
    Artifact artifact;
};

std::optional<NearbyEntry> find_nearby_manifest_entry(const fs::path& archive) {
    auto file_name = fsx::to_utf8(archive.filename());
    auto dir = fsx::absolute_normal(archive).parent_path();
    for (int up = 0; up < 4 && !dir.empty(); ++up, dir = dir.parent_path()) {
        std::error_code ec;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            auto name = fsx::to_utf8(it->path().filename());
            if (!name.starts_with("redistrib_") || !name.ends_with(".json")) continue;
            auto text = fsx::read_file(it->path(), 64u << 20);
            if (!text) continue;
            try {
                auto m = Manifest::parse(*text, fsx::to_utf8(it->path()), name.substr(10, name.size() - 15));
                for (const auto& [key, c] : m.components)
                    for (const auto& a : c.artifacts)
                        if (a.relative_path.substr(a.relative_path.rfind('/') + 1) == file_name)
                            return NearbyEntry{m.release_label, c, a};
            } catch (const Error& e) {
                spdlog::debug("ignoring {}: {}", name, e.what());
            }
        }
        if (dir == dir.root_path()) break;
    }
    return std::nullopt;
}

ArchiveName checked_name(const fs::path& path, const std::string& platform) {
    auto file_name = fsx::to_utf8(path.filename());
    // Not only regular files: a named pipe streams an archive too.
    if (!fsx::exists(path) || fsx::is_dir(path)) throw Error("'" + fsx::to_utf8(path) + "' is not a file");
    auto name = parse_archive_name(file_name);
    if (!name)
        throw UsageError("'" + file_name + "' is not an NVIDIA archive name",
                         "expected cudnn-<os>-x86_64-<version>_cuda<N>-archive.tar.xz|.zip or "
                         "<component>-<os>-x86_64-<version>-archive.tar.xz|.zip (e.g. cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz)");
    if (name->platform != platform)
        throw Error("'" + file_name + "' is built for " + name->platform + "; this machine needs " + platform + " archives",
                    "download the " + platform + " archive (" + (platform.starts_with("windows") ? ".zip" : ".tar.xz") + ")");
    return *name;
}

}  // namespace

Plan plan_archives(Store& store, const std::vector<fs::path>& archives, const std::string& sha256,
                   const std::string& platform) {
    if (!sha256.empty() && archives.size() != 1)
        throw UsageError("--sha256 checks one archive; give one archive per install");
    if (!sha256.empty() && !str::is_sha256_hex(sha256))
        throw UsageError("--sha256 needs 64 hex digits, got '" + sha256 + "'");
    Plan plan;
    plan.platform = platform;
    std::map<std::string, ToolkitStep> toolkits;  // release -> components
    std::vector<std::pair<ArchiveJob, ArchiveName>> unversioned;
    for (const auto& path : archives) {
        auto name = checked_name(path, platform);
        std::error_code ec;
        auto size = fs::is_regular_file(path, ec) ? fs::file_size(path, ec) : 0;
        ArchiveJob job{"", name.component, {name.component, name.version.str()},
                       {platform, name.cuda_major, "", str::to_lower_ascii(sha256), 0}, path};
        job.artifact.size = ec ? 0 : size;  // shown in progress; checked only against a manifest
        auto nearby = find_nearby_manifest_entry(path);
        if (nearby) {
            job.info = {nearby->component.name, nearby->component.version};
            if (job.artifact.sha256.empty()) job.artifact.sha256 = nearby->artifact.sha256;
            job.artifact.size = nearby->artifact.size;
            spdlog::info("{}: checked against the manifest of release {}", fsx::to_utf8(path.filename()), nearby->release_label);
        }
        if (name.is_cudnn()) {
            auto v = name.version;
            auto target = store.managed_cudnn_path(v.prefix(3), name.cuda_major);
            if (fsx::exists(target))
                plan.notes.push_back("cuDNN " + v.prefix(3).str() + " for CUDA " + std::to_string(name.cuda_major) +
                                     " is already installed in " + fsx::to_utf8(target));
            else
                plan.cudnns.push_back({v, name.cuda_major, target, job});
        } else if (nearby && !nearby->release_label.empty()) {
            toolkits[nearby->release_label].archives.push_back(job);
        } else {
            unversioned.emplace_back(job, name);
        }
    }
    // Without a manifest, the toolkit version is the major.minor that the
    // cuda_* components (runtime, compiler) carry; library versions differ.
    if (!unversioned.empty()) {
        std::set<std::string> seen;
        for (const auto& [j, n] : unversioned)
            if (n.component.starts_with("cuda_")) seen.insert(n.version.prefix(2).str());
        if (seen.size() != 1)
            throw UsageError(seen.empty() ? "cannot tell which CUDA version these components belong to"
                                          : "these components belong to different CUDA versions (" +
                                                str::join({seen.begin(), seen.end()}, ", ") + ")",
                             "install the components of one CUDA version together, including cuda_cudart or "
                             "cuda_nvcc, or put NVIDIA's redistrib_<version>.json next to them");
        for (const auto& entry : unversioned) toolkits[*seen.begin()].archives.push_back(entry.first);
    }
    for (auto& [release, step] : toolkits) {
        auto v = Version::parse(release);
        if (!v) throw Error("invalid CUDA version '" + release + "'");
        step.release = release;
        step.target = store.managed_toolkit_path(*v);
        plan.toolkits.push_back(std::move(step));
    }
    return plan;
}

}  // namespace cudaenv::install
