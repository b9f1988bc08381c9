#pragma once
// Forward compatibility decided as NVIDIA decides it (docs/gpu.md, "Forward
// compatibility"): a CUDA release newer than the host driver runs through the
// cuda-compat libraries (a newer user-mode driver, libcuda.so.<version>) only
// when the host driver cannot run it, the compat libraries are newer than the
// host driver, and the GPU is a data-centre part that supports it. Otherwise
// they fail: error 803 (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH) for compat
// libraries that do not fit the kernel driver, 804
// (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE) on a GPU without it.
//
// The host driver comes from NVML or the kernel module (/proc, /sys), never
// from a libcuda.so.* file name: with compat libraries on the path that name
// is theirs (nvidia-container-toolkit read it so and fixed it).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "nvidia/driver_support.hpp"

namespace cudaenv::nvidia {

inline constexpr const char* error_803 = "error 803 (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)";
inline constexpr const char* error_804 = "error 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE)";
// What each means, for doctor's report.
inline constexpr const char* error_803_means = "cuda-compat libraries that do not fit the kernel driver";
inline constexpr const char* error_804_means = "forward compatibility tried on a GPU that does not support it";

// The cuda-compat libraries of one folder.
struct CompatLibs {
    std::filesystem::path dir;
    std::filesystem::path libcuda;  // libcuda.so.<version>
    std::string version;            // "560.35.05": the compat driver's version, from that file's name
};
// The folders a pair's compat libraries may be in: the toolkit's own compat/
// (an adopted /usr/local/cuda-X.Y), then /usr/local/cuda-X.Y/compat (NVIDIA's
// cuda-compat-X-Y package). Empty on Windows.
std::vector<std::filesystem::path> compat_dirs(const std::filesystem::path& toolkit_root, const Version& cuda,
                                               bool windows);
// Whether NVIDIA offers forward compatibility (the cuda-compat package) on that OS: Linux only.
constexpr bool has_forward_compat(bool windows) { return !windows; }
// What `dir` holds (its newest libcuda.so.<version>); nullopt when none.
std::optional<CompatLibs> read_compat_dir(const std::filesystem::path& dir);
// Every compat folder of `dirs` that holds libraries.
std::vector<CompatLibs> find_compat_libs(const std::vector<std::filesystem::path>& dirs);

// Whether a GPU supports forward compatibility (gpu_archs.toml's
// [[forward_compat]] rows, by the name the driver gives it).
enum class GpuSupport { supported, unsupported, unknown };
struct CompatGpu {
    std::string label;  // "GPU 0 (NVIDIA H100 80GB HBM3, sm_90)"
    std::string name;   // as the driver names it; "" for a planned GPU (--gpu)
};
GpuSupport gpu_support(const std::string& name, std::string* source = nullptr);

struct CompatChoice {
    enum class Kind {
        not_needed,  // the host driver runs the release itself
        use,         // put `libs` first on the library path
        refused,     // would fail: `error` says with which code (803, 804), `why` how to get out
        unknown,     // no driver known, or no GPU model (a GPU planned with --gpu has none) to decide with
    };
    Kind kind = Kind::not_needed;
    CompatLibs libs;
    int error = 0;    // 803, 804 or 0
    std::string why;  // one line
};
const char* choice_name(CompatChoice::Kind k);  // "not needed", "use", "refused", "unknown"

// `host`: judge_driver's answer for the release on the host driver.
CompatChoice decide_forward_compat(const DriverJudgement& host, const Version& cuda, const std::vector<CompatGpu>& gpus,
                                   const std::vector<CompatLibs>& found, bool windows);

}  // namespace cudaenv::nvidia
