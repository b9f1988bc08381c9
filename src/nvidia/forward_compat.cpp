#include "nvidia/forward_compat.hpp"

#include <algorithm>

#include "core/cudalibs.hpp"
#include "nvidia/compat.hpp"
#include "util/fs.hpp"

namespace cudaenv::nvidia {

namespace fs = std::filesystem;

std::vector<fs::path> compat_dirs(const fs::path& toolkit_root, const Version& cuda, bool windows) {
    if (!has_forward_compat(windows)) return {};
    std::vector<fs::path> out;
    if (!toolkit_root.empty()) out.push_back(toolkit_root / "compat");
    auto system = fs::path("/usr/local") / ("cuda-" + cuda.prefix(2).str()) / "compat";
    if (out.empty() || out.front() != system) out.push_back(system);
    return out;
}

std::optional<CompatLibs> read_compat_dir(const fs::path& dir) {
    const std::string prefix = std::string(cudalibs::linux_driver) + ".";
    std::optional<CompatLibs> best;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (!name.starts_with(prefix)) continue;
        auto version = name.substr(prefix.size());
        // libcuda.so.1 is the link the loader takes; the file behind it names the driver (560.35.05).
        auto v = Version::parse(version);
        if (!v || v->parts().size() < 2) continue;
        if (!best || compare_driver(best->version, version) < 0) best = CompatLibs{dir, it->path(), version};
    }
    return best;
}

std::vector<CompatLibs> find_compat_libs(const std::vector<fs::path>& dirs) {
    std::vector<CompatLibs> out;
    for (const auto& d : dirs)
        if (auto libs = read_compat_dir(d)) out.push_back(*libs);
    return out;
}

GpuSupport gpu_support(const std::string& name, std::string* source) {
    if (name.empty()) return GpuSupport::unknown;
    const auto* row = GpuArchs::get().forward_compat(name);
    if (!row) return GpuSupport::unknown;
    if (source) *source = row->source;
    return row->supported ? GpuSupport::supported : GpuSupport::unsupported;
}

const char* choice_name(CompatChoice::Kind k) {
    switch (k) {
        case CompatChoice::Kind::not_needed: return "not needed";
        case CompatChoice::Kind::use: return "use";
        case CompatChoice::Kind::refused: return "refused";
        case CompatChoice::Kind::unknown: return "unknown";
    }
    return "unknown";
}

CompatChoice decide_forward_compat(const DriverJudgement& host, const Version& cuda, const std::vector<CompatGpu>& gpus,
                                   const std::vector<CompatLibs>& found, bool windows) {
    CompatChoice c;
    const auto label = "CUDA " + cuda.prefix(2).str();
    if (host.fit == DriverFit::runs || host.fit == DriverFit::minor_compat) {
        c.why = host.why + ": " + label + " needs no forward compatibility";
        // Compat libraries of an older driver on the path would shadow the host's: 803.
        for (const auto& l : found)
            if (!host.driver.empty() && compare_driver(l.version, host.driver) <= 0) {
                c.why += "; the cuda-compat libraries in " + fsx::to_utf8(l.dir) + " (" + l.version +
                         ") are not newer than it: keep them off the library path (" + error_803 + ")";
                break;
            }
        return c;
    }
    if (host.fit == DriverFit::unknown) {
        c.kind = CompatChoice::Kind::unknown;
        c.why = host.why;
        return c;
    }
    // The host driver is too old for the release: forward compatibility, where the GPU has it.
    // Whether forward compatibility is a way out depends on the GPU's model.
    if (gpus.empty() || std::any_of(gpus.begin(), gpus.end(), [](const CompatGpu& g) { return g.name.empty(); })) {
        c.kind = CompatChoice::Kind::unknown;
        c.why = host.why;
        return c;
    }
    for (const auto& g : gpus) {
        auto s = gpu_support(g.name);
        if (s == GpuSupport::supported) continue;
        c.kind = CompatChoice::Kind::refused;
        c.error = 804;
        c.why = host.why + "; " + g.label +
                (s == GpuSupport::unsupported ? " does not support forward compatibility (data-centre GPUs only)"
                                              : " is not known to support forward compatibility (data-centre GPUs "
                                                "only; gpu_archs.toml has no row for it)") +
                ": the cuda-compat libraries fail there with " + error_804;
        return c;
    }
    // Newest first: compat libraries newer than the host driver that run the release.
    const CompatLibs* best = nullptr;
    std::string stale;
    bool mismatch = false;  // the compat libraries found are not newer than the host: 803
    for (const auto& l : found) {
        bool newer = host.driver.empty() || compare_driver(l.version, host.driver) > 0;
        bool runs = judge_driver(l.version, cuda, windows).fit != DriverFit::too_old;
        if (newer && runs) {
            if (!best || compare_driver(best->version, l.version) < 0) best = &l;
        } else if (stale.empty()) {
            mismatch = !newer;
            stale = "the cuda-compat libraries in " + fsx::to_utf8(l.dir) + " (" + l.version + ") " +
                    (newer ? "do not run " + label : "are not newer than the host driver (" + std::string(error_803) + ")");
        }
    }
    if (best) {
        c.kind = CompatChoice::Kind::use;
        c.libs = *best;
        c.why = host.why + "; forward compatibility: the cuda-compat libraries in " + fsx::to_utf8(best->dir) + " (" +
                best->version + ") run it on this data-centre GPU";
        return c;
    }
    c.kind = CompatChoice::Kind::refused;
    c.error = mismatch ? 803 : 0;
    c.why = host.why + "; " +
            (stale.empty() ? "no cuda-compat libraries for " + label + " (NVIDIA's cuda-compat-" +
                                 std::to_string(cuda.major()) + "-" + std::to_string(cuda.minor()) +
                                 " package, in /usr/local/cuda-" + cuda.prefix(2).str() + "/compat)"
                           : stale) +
            ": update the driver" + (host.floor.empty() ? "" : " to >= " + host.floor) +
            " or install cuda-compat-" + std::to_string(cuda.major()) + "-" + std::to_string(cuda.minor());
    return c;
}

}  // namespace cudaenv::nvidia
