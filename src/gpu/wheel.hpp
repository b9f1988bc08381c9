#pragma once
// The GPU code of a framework's own wheel: PyTorch ships its kernels in
// torch/lib (libtorch_cuda.so, torch_cuda.dll) and loads CUDA and cuDNN from
// the nvidia-* wheels beside it (site-packages/nvidia/*/lib), so whether it
// runs on a GPU is in those files, whatever pair is active. `doctor` and
// `--for torch==X+cuYYY` read them (headers only, through the code cache).
#include <optional>
#include <string>
#include <vector>

#include "gpu/code_cache.hpp"
#include "gpu/machine.hpp"
#include "gpu/pair_code.hpp"

namespace cudaenv::gpu {

struct WheelScan {
    std::string dist, version;        // "torch", "2.11.0+cu130"
    std::vector<LibraryCode> libs;    // its own and the nvidia-* wheels' libraries
};

// torch as installed for `python` (asked without importing torch); nullopt when it is not.
std::optional<WheelScan> scan_torch(const std::string& python, CodeCache& cache);

// Per GPU of `m`: the worst of the wheel's libraries; "" when every GPU runs natively.
// Otherwise one line: "torch 2.11.0+cu130: GPU 0 (..., sm_61): libtorch_cuda.so: no code for sm_61 (has ...)".
std::string wheel_problem(const WheelScan& w, const Machine& m, Runs* worst = nullptr);

}  // namespace cudaenv::gpu

namespace cudaenv::gpu {
// `--for torch==<version>`: when the python on PATH imports that torch and its
// own binaries leave a GPU of this machine out (or reach it only through JIT),
// one line saying so; "" otherwise (no python, another torch, no GPU known).
std::string torch_wheel_warning(const std::string& version, const std::filesystem::path& store_root);
}  // namespace cudaenv::gpu
