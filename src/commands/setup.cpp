// cudaenv setup [<shell>] [--undo] [--install [DIR]] [--python P]: parses its arguments
// and hands the work to setup/setup_run.hpp (what it changes, and how
// --undo takes it back exactly, is written there).
#include <CLI/CLI.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "setup/setup_run.hpp"
#include "shell/shells.hpp"

namespace cudaenv {

void register_setup(CLI::App* cmd, Context& ctx) {
    auto shell = std::make_shared<std::string>();
    auto undo = std::make_shared<bool>(false);
    auto install = std::make_shared<std::string>();
    cmd->add_option("shell", *shell, "One of " + shell_choices() + "; default: your shell");
    cmd->add_flag("--undo", *undo, "Remove what setup added (all shells, and --install's copy, when none is named)");
    auto* inst = cmd->add_option("--install", *install,
                                 "Windows: copy the programs to DIR (default %LOCALAPPDATA%\\Programs\\cudaenv), put it "
                                 "and the shims on the user PATH, set up PowerShell and cmd")
                     ->expected(0, 1)
                     ->type_name("[DIR]");
    auto python = std::make_shared<std::string>();
    auto* py = cmd->add_option("--python", *python,
                               "Put the DLL hook into this Python environment (an interpreter or a venv folder): on "
                               "Windows its Python then finds the active pair's DLLs")
                   ->type_name("<interpreter or venv>");
    std::string where;
    for (const auto& sh : shells())
        where += (where.empty() ? "" : ", ") + std::string(sh.name) + ": " + std::string(sh.profile_shown);
    cmd->footer(where + ".\nWindows: the shims folder goes on the user's PATH (HKCU), never the machine's.\n"
                        "--undo removes exactly the bytes setup wrote, and refuses when they were changed since.");
    cmd->callback([&ctx, shell, undo, install, inst, python, py] {
        std::optional<std::string> dir;
        if (inst->count() > 0) dir = *install;
        SetupRequest request{*shell, *undo, dir, {}, integration_commands()};
        if (py->count() > 0) request.python = *python;
        check_setup_request(request);
        run_setup(ctx.store(), request);
    });
}

}  // namespace cudaenv
