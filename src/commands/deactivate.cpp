// cudaenv deactivate: undo every `use` of this session, restoring each
// variable to exactly what it was (unset ones unset again).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "shell/shell.hpp"

namespace cudaenv {

namespace {

void run_deactivate(Context& ctx) {
    auto shell = integration_shell("deactivate");
    auto diff = plan_deactivate(ctx.env(), native_path_style());
    if (diff.edits.empty()) std::cerr << "cudaenv: no pair is active in this shell\n";
    std::cout << render(*shell, diff);
}

}  // namespace

void register_deactivate(CLI::App* cmd, Context& ctx) {
    cmd->callback([&ctx] { run_deactivate(ctx); });
}

}  // namespace cudaenv
