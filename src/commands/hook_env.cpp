// cudaenv hook-env (hidden): what the auto-switch hook of `cudaenv init`
// evaluates when the version file that applies to the current folder has
// changed. It prints the code for the pair the nearest .cudaenv (or
// .tool-versions) names, or the code that restores the environment from
// before when the folder is in no project. It leaves CUDAENV_VERSION alone,
// so `cudaenv current` still names the file, and an explicit `cudaenv use`
// (which sets CUDAENV_VERSION) wins: then it prints nothing.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "gpu/pair_code.hpp"
#include "platform/platform.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_hook_env(Context& ctx) {
    auto shell = integration_shell("hook-env");
    if (auto v = platform::get_env("CUDAENV_VERSION"); v && !v->empty()) return;
    EnvDiff diff;
    if (auto file = find_version_file(ctx.cwd())) {
        try {
            auto plan = ctx.plan_for(file->spec.str(), ctx.msvc_auto());
            gpu::warn_if_cannot_run(ctx.store().root(), plan.folders, &plan.diff);
            diff = plan.diff;
        } catch (const Error& e) {
            throw Error(std::string(e.what()) + " (set by " + fsx::to_utf8(file->path) + ")", e.hint());
        }
        diff.erase("CUDAENV_VERSION");
    } else {
        // In no project: undo what the hook applied (nothing when nothing is active).
        diff = plan_deactivate(ctx.env(), native_path_style());
    }
    std::cout << render(*shell, diff);
}

}  // namespace

void register_hook_env(CLI::App* cmd, Context& ctx) {
    cmd->callback([&ctx] { run_hook_env(ctx); });
}

}  // namespace cudaenv
