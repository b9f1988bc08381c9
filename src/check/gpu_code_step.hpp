#pragma once
// check's step `gpu_code`: for every library the `files` step found, the GPU
// code it carries and whether it runs on this machine's GPUs (native, JIT,
// none), read in the parent from the files' headers (gpu/fatbin, through the
// code cache) so the child that loads the libraries does not grow. A library
// with no code for a GPU here fails the pair: its kernels would not launch.
#include "check/result.hpp"
#include "gpu/code_cache.hpp"
#include "gpu/machine.hpp"

namespace cudaenv::check {

// Adds the step to `r` after its step `gpu` (and fails the pair when a library
// has no code for a GPU); nothing when no library carries GPU code or no GPU is known.
void add_gpu_code_step(PairResult& r, const gpu::Machine& m, gpu::CodeCache& cache);

}  // namespace cudaenv::check
