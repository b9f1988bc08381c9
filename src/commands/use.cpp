// cudaenv use <spec> (alias: shell): switch this shell session. The binary
// cannot change its parent shell, so the shell integration (`cudaenv init`)
// runs it with CUDAENV_SHELL set and evaluates the code it prints.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "gpu/pair_code.hpp"
#include "commands/for_framework.hpp"
#include "core/cmake_cache.hpp"
#include "export/formats.hpp"
#include "platform/platform.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// A build folder here configured for another toolkit keeps using it after the switch.
void warn_stale_builds(Context& ctx, const Activation& a) {
    if (!a.folders) return;
    for (const auto& s : stale_cmake_caches(ctx.cwd(), a.folders->toolkit.root, native_path_style()))
        std::cerr << "cudaenv: warning: " << describe(s, ctx.cwd()) << "\nhint: " << stale_cache_fix(s, ctx.cwd())
                  << "\n";
}

void run_use(Context& ctx, const std::string& spec, bool msvc) {
    auto shell = integration_shell("use");
    // A module of cudaenv's loaded here keeps its own record of what it
    // changed: `use` over it would leave `module unload` and `deactivate` undoing each other.
    if (auto module = exporting::loaded_cudaenv_module(ctx.env()))
        throw Error("the module " + str::visible(*module) + " (written by `cudaenv export`) is loaded in this shell; "
                        "`cudaenv use` over it would leave `module unload` and `cudaenv deactivate` undoing each other",
                    "run `module unload " + str::visible(*module) + "` first, then `cudaenv use " + spec + "`");
    auto plan = ctx.plan_for(spec, msvc);
    // When the spec matched more than one install: which one, why, and the others' exact specs.
    for (const auto& line : plan.choice) std::cerr << "cudaenv: " << line << "\n";
    warn_stale_builds(ctx, plan);
    for (const auto& note : plan.notes) std::cerr << "cudaenv: " << note << "\n";
    gpu::warn_if_cannot_run(ctx.store().root(), plan.folders, &plan.diff);
    std::cout << render(*shell, plan.diff);
}

}  // namespace

void register_use(CLI::App* cmd, Context& ctx) {
    auto spec = std::make_shared<std::string>();
    auto for_opts = std::make_shared<ForOptions>();
    auto msvc = std::make_shared<std::optional<bool>>();
    cmd->add_option("spec", *spec, "e.g. 11.8, 12+9, 11.8+8.9.7, 12.4+none, system");
    add_for_options(cmd, *for_opts);
    cmd->add_flag_callback(
        "--msvc", [msvc] { *msvc = true; },
        "Windows: also enter the newest Visual Studio toolset the pair's nvcc accepts (config: msvc = \"auto\")");
    cmd->add_flag_callback("--no-msvc", [msvc] { *msvc = false; }, "Enter no Visual Studio toolset, whatever config.toml says");
    cmd->callback([&ctx, spec, for_opts, msvc] {
        if (!for_opts->for_text.empty() && !spec->empty()) throw UsageError("give a spec or --for, not both");
        if (!for_opts->for_text.empty()) *spec = spec_for_framework(ctx.store(), *for_opts);
        if (spec->empty()) throw UsageError("`cudaenv use` needs a spec or --for", "e.g. cudaenv use 12.4");
        if (msvc->value_or(false) && !platform::has_msvc_toolsets)
            throw UsageError("--msvc enters a Visual Studio toolset, which exists only on Windows",
                             "on Linux cudaenv picks a host compiler nvcc accepts by itself (docs/host-compilers.md)");
        run_use(ctx, *spec, msvc->value_or(ctx.msvc_auto()));
    });
}

}  // namespace cudaenv
