#pragma once
// --gpu and --driver (CUDAENV_GPU, CUDAENV_DRIVER) on every command that
// chooses or judges a pair: plan for another machine (CI, a login node, a
// container build). The machine to judge for comes from gpu/machine.
#include <string>

#include "gpu/machine.hpp"

namespace CLI {
class App;
}

namespace cudaenv {

class Context;

// Adds --gpu and --driver to `cmd`.
void add_gpu_options(CLI::App* cmd, gpu::Overrides& opts);

// The machine to judge for; says on stderr when an override is in force
// (every output that judges says so: `quiet` only when the caller says it itself).
gpu::Machine machine_for(Context& ctx, const gpu::Overrides& opts, gpu::Probe probe, bool quiet = false);

}  // namespace cudaenv
