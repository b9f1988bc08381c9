#pragma once
// Whether a pair runs here: THE judgement every command that decides a pair
// makes (judge_pair: list, inspect, install, lock, sync, mirror create, use,
// exec, the hook, the shims, check's gpu_code step, doctor). Two questions:
// the GPUs, from the GPU code the pair's libraries carry where they were read
// (the scan), else from the compatibility tables (src/data/gpu_archs.toml's
// [[cuda_arch]], compat.toml's [[cudnn]] cc ranges; where both speak and
// disagree, the scan wins and the verdict says so); and the driver, against
// the pair's CUDA release (nvidia/driver_support), with forward compatibility
// where the driver is too old (nvidia/forward_compat).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/env_diff.hpp"
#include "core/pairs.hpp"
#include "gpu/code_cache.hpp"
#include "gpu/machine.hpp"
#include "gpu/table.hpp"
#include "gpu/verdict.hpp"
#include "nvidia/driver_support.hpp"
#include "nvidia/forward_compat.hpp"

namespace cudaenv {
class DetectionCache;
}

namespace cudaenv::gpu {

struct LibraryCode {
    std::filesystem::path path;
    bool cudnn = false;  // part of the pair's cuDNN, else the toolkit's
    FileCode file;
};

enum class Scan {
    read,       // read the files not yet kept (inspect, install, check, list)
    kept_only,  // only what the cache holds (use, exec, hook-env, the shims)
};

// The pair's library files with their code (cuBLAS, cuBLASLt, cuFFT, cuRAND,
// cuSPARSE, cuSOLVER, NVRTC, cudart; every cuDNN library). With kept_only,
// files the cache does not hold are left out.
std::vector<LibraryCode> pair_libraries(const DetectedPair& pair, CodeCache& cache, Scan scan);

struct GpuVerdict {
    MachineGpu gpu;
    Runs runs = Runs::no_code;
    std::string why;   // the deciding library or table row
    std::string note;  // "the support matrix says ...; the libraries carry ...: going by the libraries"
    bool unconfirmed = false;  // a "no" that rests on an unconfirmed row: it warns, never refuses
};

struct PairVerdict {
    std::vector<GpuVerdict> gpus;  // empty when the machine's GPUs are unknown
    Runs runs = Runs::no_code;     // the GPU code's worst over the GPUs
    // The driver against the pair's CUDA release (fit unknown: no driver known, or no CUDA asked).
    nvidia::DriverJudgement driver;
    // When the driver is too old: forward compatibility, or why it is no way out.
    nvidia::CompatChoice compat;

    // "" when the pair may be installed or activated here; else one line why
    // not (a confirmed "no" of the GPU code, or a driver too old without
    // forward compatibility), which install, lock, sync and mirror create
    // refuse with (--force: a warning) and use, exec, the hook and the shims warn with.
    std::string refusal(const Machine& m) const;
    // What `list` shows in its GPU column: "native", "JIT", "no", "no?"
    // (an unconfirmed row says no: a warning), "?" (nothing known).
    std::string cell() const;
    // The driver's part of the verdict, short, for `list`'s GPU column: "driver
    // 470.256.02 too old", "driver 535.104.05: minor-version compatibility",
    // "forward compatibility 580.95.05"; "" when the driver runs the release or is unknown.
    std::string driver_note() const;
    // Worth a line under `list`'s table: not native, or a driver caveat.
    bool notable() const;
    // One line: "native", "JIT: ...", "no: GPU 0 (..., sm_61): ...", "no: driver 470.256.02 runs CUDA up to 11.4; ...".
    std::string line(const Machine& m) const;
};

// When the compatibility table is asked (parsing it costs a TOML parse):
enum class TableUse {
    compare,   // always, and say where it disagrees with the libraries (inspect, doctor)
    fallback,  // only for a part whose libraries carry no GPU code (list)
    never,     // the switch path: what is not scanned says nothing
};
// `cuda` nullopt: a cuDNN release judged alone (install, before its CUDA is
// chosen; the widest of its builds). `memo`: the table's and the driver's
// verdicts are kept in and taken from that cache (list). `toolkit_root`: where
// the pair's own cuda-compat libraries may be (its compat/ folder).
// `recorded`: what a lock file says the pair needs (`sync`): a GPU outside its
// compute capabilities, or a driver older than its minimum, is refused too.
PairVerdict judge_pair(const std::optional<Version>& cuda, const std::optional<Version>& cudnn,
                       const std::vector<LibraryCode>& libs, const Machine& m, TableUse table = TableUse::compare,
                       CodeCache* memo = nullptr, const std::filesystem::path& toolkit_root = {},
                       const PairNeeds* recorded = nullptr);

// The machine's GPUs as forward compatibility asks about them.
std::vector<nvidia::CompatGpu> compat_gpus(const Machine& m);

// The one warning `use`, `exec`, the auto-switch hook and the tool shims give
// (on stderr) when the pair cannot run here (its GPU code, or the driver):
// from the caches only (the machine kept for this boot, the libraries already
// read), never a probe or a library read; nullopt when nothing known says so.
std::optional<std::string> runs_warning(const std::filesystem::path& store_root, const DetectedPair& pair);
// Prints runs_warning's line ("cudaenv: warning: ...") on stderr for use,
// exec, hook-env and the tool shims, and, where the driver is too old for the
// pair and forward compatibility runs it (nvidia/forward_compat), puts the
// cuda-compat libraries first on the activation's LD_LIBRARY_PATH (`diff`).
// A warning never stops an activation: a bad CUDAENV_GPU or CUDAENV_DRIVER
// (which list, inspect and doctor report) makes it say nothing here.
void warn_if_cannot_run(const std::filesystem::path& store_root, const std::optional<DetectedPair>& pair,
                        EnvDiff* diff = nullptr);
// The same forward-compatibility step without the warning (check's children).
void apply_forward_compat(const std::filesystem::path& store_root, const DetectedPair& pair, EnvDiff& diff);

// `trace`: one warning per loaded library (by its real path) that carries GPU
// code but none that runs on a GPU of `m`.
std::vector<std::string> loaded_library_warnings(const std::vector<std::string>& paths, const Machine& m, CodeCache& cache);

// Where the driver keeps what it JIT-compiles and how large that may grow
// (CUDA_CACHE_PATH, CUDA_CACHE_MAXSIZE, else NVIDIA's defaults).
std::string jit_cache_note();

// Every pair's verdict (`list`): folders from the detection cache, code from
// the code cache (files not kept yet are read with Scan::read); nothing when
// the machine's GPUs are unknown. A pair whose folders are gone gets "?".
std::vector<PairVerdict> judge_pairs(const std::vector<Pair>& pairs, DetectionCache& folders, CodeCache& cache,
                                     const Machine& m, Scan scan);

// The GPU column of `list` (PairVerdict::cell).
std::string runs_cell(const PairVerdict& v);

}  // namespace cudaenv::gpu
