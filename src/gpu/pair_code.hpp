#pragma once
// Whether a pair runs on the machine's GPUs: from the GPU code its libraries
// carry where they were read (the scan), else from the compatibility tables
// (src/data/gpu_archs.toml's [[cuda_arch]], compat.toml's [[cudnn]] cc ranges).
// Where both speak and disagree, the scan wins and the verdict says so.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/pairs.hpp"
#include "gpu/code_cache.hpp"
#include "gpu/machine.hpp"
#include "gpu/table.hpp"
#include "gpu/verdict.hpp"

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
};

struct PairVerdict {
    std::vector<GpuVerdict> gpus;  // empty when the machine's GPUs are unknown
    Runs runs = Runs::no_code;     // the worst over the GPUs
    // One line: "native", "JIT: ...", "no: GPU 0 (..., sm_61): ...".
    std::string line(const Machine& m) const;
};

// When the compatibility table is asked (parsing it costs a TOML parse):
enum class TableUse {
    compare,   // always, and say where it disagrees with the libraries (inspect, doctor)
    fallback,  // only for a part whose libraries carry no GPU code (list)
    never,     // the switch path: what is not scanned says nothing
};
// `memo`: the table's verdicts are kept in and taken from that cache (list).
PairVerdict judge_pair(const Version& cuda, const std::optional<Version>& cudnn, const std::vector<LibraryCode>& libs,
                       const Machine& m, TableUse table = TableUse::compare, CodeCache* memo = nullptr);

// The one warning `use`, `exec`, the auto-switch hook and the tool shims give
// (on stderr) when the pair cannot run on this machine's GPUs: from the caches
// only (the machine kept for this boot, the libraries already read), never a
// probe, a TOML parse or a library read; nullopt when nothing known says so.
std::optional<std::string> runs_warning(const std::filesystem::path& store_root, const DetectedPair& pair);
// Prints runs_warning's line ("cudaenv: warning: ...") on stderr for use,
// exec, hook-env and the tool shims. A warning never stops an activation: a
// bad CUDAENV_GPU or CUDAENV_DRIVER (which list, inspect and doctor report)
// makes it say nothing here.
void warn_if_cannot_run(const std::filesystem::path& store_root, const std::optional<DetectedPair>& pair);

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

// The GPU column of `list`: "native", "JIT", "no", "?".
std::string runs_cell(const PairVerdict& v);

}  // namespace cudaenv::gpu
