#pragma once
// This machine's GPUs and driver, or the ones to plan for (--gpu, --driver,
// CUDAENV_GPU, CUDAENV_DRIVER). Asking the driver needs a library load, which
// only the dynamically linked cudaenv-probe may do (`cudaenv-probe __gpus`,
// nvidia/probe_gpus), so the answer is kept per boot (and CUDA_VISIBLE_DEVICES)
// in <store>/cache/machine.txt:
// `use`, the hooks and the shims read it and never start the probe.
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/fatbin.hpp"

namespace cudaenv::gpu {

struct MachineGpu {
    int index = 0;
    std::string name;  // "NVIDIA H200"; "" for a planned GPU
    Arch arch;
};

struct Machine {
    std::vector<MachineGpu> gpus;
    std::string gpu_source;     // "the driver (cudaenv-probe)", "--gpu", "CUDAENV_GPU"; "" when none
    std::string gpu_problem;    // why no GPU is known ("no NVIDIA driver library ...")
    std::string driver;         // "580.159.04"; "" unknown
    std::string driver_source;  // "NVML", "the kernel module", "nvidia-smi", "--driver", "CUDAENV_DRIVER"
    std::string driver_cuda;    // the newest CUDA the driver supports ("13.0"); "" unknown
    bool gpu_override = false, driver_override = false;

    bool known() const { return !gpus.empty(); }
    // "sm_61 (--gpu)"-style note for every output that judges; "" without an override.
    std::string override_note() const;
    // "GPU 0 (NVIDIA H200, sm_90)", or "sm_61" for a planned one.
    std::string label(const MachineGpu& g) const;
};

// What the command line gave (empty: not given; the environment is read then).
struct Overrides {
    std::string gpu, driver;
};

enum class Probe {
    allowed,     // start cudaenv-probe when nothing is kept for this boot
    cache_only,  // never start a process (use, exec, hook-env, the shims, list)
};

// The machine to judge for. `store_root` holds the per-boot cache.
Machine this_machine(const std::filesystem::path& store_root, const Overrides& given, Probe probe);

// "sm_61,sm_90" / "8.6" / "61": the GPUs of --gpu; throws UsageError naming `what`.
std::vector<Arch> parse_gpu_list(const std::string& text, const std::string& what);

// The per-boot record's text and back (exposed for tests). `until` (Unix
// seconds, 0: the whole boot): a failed or timed-out answer is kept only a
// few minutes, so a hung nvidia-smi is not waited for on every command, and
// is asked again later. `now`: the clock decode compares with.
std::string encode_machine(const Machine& m, const std::string& key, long long until = 0);
bool decode_machine(const std::string& text, const std::string& key, Machine& out, long long now = 0);

}  // namespace cudaenv::gpu
