// cudaenv init <sh>: print the shell integration. For pwsh and cmd it also
// (re)writes the session shims in <store>/shims.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <spdlog/spdlog.h>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "platform/platform.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

void run_init(Context& ctx, const std::string& shell_name, bool auto_switch) {
    const auto& info = shell_info(shell_name);
    auto shell = info.make();
    InitOptions opts{fsx::to_utf8(platform::executable_path()), fsx::to_utf8(ctx.store().shims_dir()), auto_switch,
                     integration_commands()};
    if (info.session_shim) {
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

void register_init(CLI::App* cmd, Context& ctx) {
    auto shell = std::make_shared<std::string>();
    auto auto_switch = std::make_shared<bool>(true);
    cmd->add_option("shell", *shell, "One of " + shell_choices())->required();
    cmd->add_flag("--auto-switch,!--no-auto-switch", *auto_switch,
                  "Switch to the pair of the nearest .cudaenv on every directory change (default: on; "
                  "not in cmd)");
    std::string footer;
    for (const auto& s : shells())
        footer += std::string(s.name) + ":" + std::string(7 - std::min<size_t>(s.name.size(), 6), ' ') +
                  std::string(s.load_line) + "   in " + std::string(s.profile_shown) + "\n";
    cmd->footer(footer +
                "With auto-switch (the default; not in cmd), entering a folder below a .cudaenv activates its pair and\n"
                "leaving it restores what was there; an explicit `cudaenv use` wins until `cudaenv deactivate`.");
    cmd->callback([&ctx, shell, auto_switch] { run_init(ctx, *shell, *auto_switch); });
}

}  // namespace cudaenv
