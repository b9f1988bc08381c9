#pragma once
#include <span>
#include <string>
#include <vector>

#include "commands/command_table.hpp"

namespace cudaenv {

// Parses the command line, runs one command of `commands` (each program has
// its table: cudaenv command_table(), cudaenv-install and cudaenv-probe one
// row each), prints any error once, and returns the exit status. Only the
// command argv names is set up, unless the whole list is needed (--help, no
// command); a word that names no command is an error naming the nearest one.
int run_app(int argc, char** argv, std::span<const CommandRow> commands);
// The same with the command line already in UTF-8, args[0] the program (on
// Windows the first form reads the process's own command line, not argv).
int run_app(std::vector<std::string> args, std::span<const CommandRow> commands);

}  // namespace cudaenv
