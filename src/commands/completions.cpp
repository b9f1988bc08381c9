// cudaenv completions <sh>: the completion script for a shell.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/context.hpp"
#include "shell/shell.hpp"
#include "util/strings.hpp"

namespace cudaenv {

void register_completions(CLI::App& app, Context&) {
    auto* cmd = app.add_subcommand("completions", "Print the completion script for a shell");
    auto shell = std::make_shared<std::string>();
    cmd->add_option("shell", *shell, "One of " + str::join(shell_names(), ", "))->required();
    cmd->callback([&app, shell] { std::cout << make_shell(*shell)->completion_script(command_names(app)); });
}

}  // namespace cudaenv
