// cudaenv exec <spec> -- <cmd> [args...]: run one command inside a pair's
// environment; its exit status passes through.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "gpu/pair_code.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

void run_exec(Context& ctx, const std::string& spec, std::vector<std::string> command) {
    if (!command.empty() && command.front() == "--") command.erase(command.begin());
    if (command.empty()) throw UsageError("no command to run", "cudaenv exec 12.4 -- nvcc --version");
    auto plan = ctx.plan_for(spec);
    gpu::warn_if_cannot_run(ctx.store().root(), plan.folders, &plan.diff);
    auto env = plan.applied_to(platform::environment(), native_path_style());
    ctx.exit_code = platform::exec_command(command, env);
}

}  // namespace

void register_exec(CLI::App* cmd, Context& ctx) {
    // The spec and the command are taken as they come, and never handed back
    // to the top-level parser (which would reject them): a declared positional
    // for the spec would make CLI11 pass everything after `--` up.
    cmd->prefix_command();
    cmd->fallthrough(false);
    cmd->footer("Usage: cudaenv exec <spec> [--] <cmd> [args...]\nExample: cudaenv exec 11.8+8.9.7 -- python train.py");
    cmd->callback([&ctx, cmd] {
        auto rest = cmd->remaining();
        if (rest.empty() || rest.front() == "--")
            throw UsageError("`cudaenv exec` needs a spec and a command", "cudaenv exec 12.4 -- nvcc --version");
        auto spec = rest.front();
        rest.erase(rest.begin());
        run_exec(ctx, spec, rest);
    });
}

}  // namespace cudaenv
