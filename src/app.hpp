#pragma once
#include <span>
#include <string>
#include <vector>
#include <string_view>

namespace CLI {
class App;
}

namespace cudaenv {

class Context;

// A command name as typed and the function that adds it to the CLI (one
// function may add several names: `use` and `shell`).
struct CommandRegistration {
    std::string_view name;
    void (*add)(CLI::App&, Context&);
    // It reads the whole command list (completions): registering it alone is not enough.
    bool needs_all = false;
};

// Parses the command line, runs one command, prints any error once, and
// returns the exit status. Only the command argv names is set up, unless
// the whole command list is needed (--help, no or an unknown command).
int run_app(int argc, char** argv, std::span<const CommandRegistration> commands);
// The same with the command line already in UTF-8, args[0] the program (on
// Windows the first form reads the process's own command line, not argv).
int run_app(std::vector<std::string> args, std::span<const CommandRegistration> commands);

// Every command of the cudaenv executable, in --help's order; the names are
// those of the command table (src/shell/commands.cpp).
std::span<const CommandRegistration> all_commands();
void register_all_commands(CLI::App& app, Context& ctx);

}  // namespace cudaenv
