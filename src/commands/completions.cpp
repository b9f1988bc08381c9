// cudaenv completions <sh>: the completion script for a shell. Each script
// is generic: on TAB it asks `cudaenv __complete` (commands/complete.cpp).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "shell/shell.hpp"

namespace cudaenv {

void register_completions(CLI::App* cmd, Context&) {
    auto shell = std::make_shared<std::string>();
    cmd->add_option("shell", *shell, "One of " + shell_choices())->required();
    cmd->callback([shell] { std::cout << make_shell(*shell)->completion_script(); });
}

}  // namespace cudaenv
