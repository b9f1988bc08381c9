// cudaenv use <spec> (alias: shell): switch this shell session. The binary
// cannot change its parent shell, so the shell integration (`cudaenv init`)
// runs it with CUDAENV_SHELL set and evaluates the code it prints.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/context.hpp"
#include "commands/for_framework.hpp"
#include "platform/platform.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"

namespace cudaenv {

// The shell that will evaluate our output; throws when there is none.
std::unique_ptr<Shell> integration_shell(const std::string& command) {
    auto sh = platform::get_env("CUDAENV_SHELL");
    if (!sh || sh->empty()) {
        std::string hint = platform::is_windows
                               ? "in PowerShell add `Invoke-Expression (& cudaenv init pwsh | Out-String)` to "
                                 "$PROFILE, or put the store's shims folder first on PATH; in cmd see `cudaenv init cmd`"
                               : "add `eval \"$(cudaenv init bash)\"` to ~/.bashrc (zsh: init zsh; fish: "
                                 "`cudaenv init fish | source`), or run one command with `cudaenv exec <spec> -- ...`";
        throw Error("`cudaenv " + command + "` needs the shell integration, which is not loaded in this shell", hint);
    }
    return make_shell(*sh);
}

namespace {

void run_use(Context& ctx, const std::string& spec) {
    auto shell = integration_shell("use");
    std::cout << render(*shell, ctx.plan_for(spec));
}

}  // namespace

void register_use(CLI::App& app, Context& ctx) {
    for (const char* name : {"use", "shell"}) {
        auto* cmd = app.add_subcommand(name, std::string(name) == "use"
                                                 ? "Switch this shell session to a pair (needs `cudaenv init`)"
                                                 : "Same as use");
        if (std::string(name) == "shell") cmd->group("");
        auto spec = std::make_shared<std::string>();
        auto for_opts = std::make_shared<ForOptions>();
        cmd->add_option("spec", *spec, "e.g. 11.8, 12+9, 11.8+8.9.7, 12.4+none, system");
        add_for_options(cmd, *for_opts);
        cmd->callback([&ctx, spec, for_opts] {
            if (!for_opts->for_text.empty() && !spec->empty()) throw UsageError("give a spec or --for, not both");
            if (!for_opts->for_text.empty()) *spec = spec_for_framework(ctx.store(), *for_opts);
            if (spec->empty()) throw UsageError("`cudaenv use` needs a spec or --for", "e.g. cudaenv use 12.4");
            run_use(ctx, *spec);
        });
    }
}

}  // namespace cudaenv
