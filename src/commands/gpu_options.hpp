#pragma once
// --gpu and --driver (CUDAENV_GPU, CUDAENV_DRIVER) on every command that
// chooses or judges a pair: plan for another machine (CI, a login node, a
// container build). The machine to judge for comes from gpu/machine.
#include <functional>
#include <iosfwd>
#include <string>

#include "gpu/machine.hpp"
#include "core/lockfile.hpp"
#include "install/plan.hpp"

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

// --force: install what cannot run here anyway (a warning instead of a refusal).
void add_force_option(CLI::App* cmd, bool& force);

// The machine to judge for, asked the first time it is needed (sync asks
// only when it has something to install), then kept.
using MachineSource = std::function<const gpu::Machine&()>;
MachineSource lazy_machine(Context& ctx, const gpu::Overrides& opts);

// What install, lock, sync and mirror create judge releases and pairs with
// before any download: the one judgement (gpu/pair_code's judge_pair) on the
// machine; a machine of which nothing is known lets everything through.
// `force`: refusals become warnings on stderr.
install::RunsHere runs_here_for(MachineSource machine, bool force);
// A lock's pair and its [requires] against the machine: "" when it runs, else why not.
std::function<std::string(const LockFile&)> lock_judge_for(MachineSource machine, bool force);
// What `lock` prints of its judgement: "cudaenv: 12.6.3+9.8.0 on GPU 0 (...): native; driver ...".
void print_judged(const LockFile& lock, const gpu::Machine& m, std::ostream& err);

}  // namespace cudaenv
