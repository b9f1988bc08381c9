#include "commands/gpu_options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/context.hpp"

namespace cudaenv {

void add_gpu_options(CLI::App* cmd, gpu::Overrides& opts) {
    cmd->add_option("--gpu", opts.gpu, "Judge for these GPUs instead of this machine's, e.g. sm_61,sm_90 (env CUDAENV_GPU)");
    cmd->add_option("--driver", opts.driver, "Judge for this driver version instead of this machine's, e.g. 535.104 (env CUDAENV_DRIVER)");
}

gpu::Machine machine_for(Context& ctx, const gpu::Overrides& opts, gpu::Probe probe, bool quiet) {
    auto m = gpu::this_machine(ctx.store().root(), opts, probe);
    if (!quiet)
        if (auto note = m.override_note(); !note.empty()) std::cerr << "cudaenv: " << note << "\n";
    return m;
}

}  // namespace cudaenv
