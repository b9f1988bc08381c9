// cudaenv init <sh>: print the shell integration. For pwsh and cmd it also
// (re)writes the session shims in <store>/shims.
#include <CLI/CLI.hpp>
#include <iostream>
#include <spdlog/spdlog.h>

#include "commands/context.hpp"
#include "platform/platform.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

void run_init(Context& ctx, const std::string& shell_name, bool auto_switch) {
    auto shell = make_shell(shell_name);
    InitOptions opts{fsx::to_utf8(platform::executable_path()), fsx::to_utf8(ctx.store().root()), auto_switch};
    if (shell->name() == "pwsh" || shell->name() == "cmd") {
        // A profile must keep loading even when the store is read-only.
        try {
            ctx.refresh_session_shims();
        } catch (const Error& e) {
            spdlog::warn("could not write the session shims: {}", e.what());
        }
    }
    std::cout << shell->init_script(opts);
}

}  // namespace

void register_init(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("init", "Print the shell integration (" + str::join(shell_names(), ", ") + ")");
    auto shell = std::make_shared<std::string>();
    auto auto_switch = std::make_shared<bool>(true);
    cmd->add_option("shell", *shell, "The shell")->required();
    cmd->add_flag("--auto-switch,!--no-auto-switch", *auto_switch,
                  "Switch to the pair of the nearest .cudaenv on every directory change (default: on; "
                  "bash, zsh, fish, pwsh)");
    cmd->footer(
        "bash:  eval \"$(cudaenv init bash)\"            in ~/.bashrc\n"
        "zsh:   eval \"$(cudaenv init zsh)\"             in ~/.zshrc\n"
        "fish:  cudaenv init fish | source               in ~/.config/fish/config.fish\n"
        "pwsh:  Invoke-Expression (& cudaenv init pwsh | Out-String)   in $PROFILE\n"
        "cmd:   the printed line as AutoRun (HKCU\\Software\\Microsoft\\Command Processor)\n"
        "With auto-switch (the default; not in cmd), entering a folder below a .cudaenv activates its pair and\n"
        "leaving it restores what was there; an explicit `cudaenv use` wins until `cudaenv deactivate`.");
    cmd->callback([&ctx, shell, auto_switch] { run_init(ctx, *shell, *auto_switch); });
}

}  // namespace cudaenv
