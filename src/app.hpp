#pragma once
namespace CLI {
class App;
}

namespace cudaenv {

class Context;
using CommandSet = void (*)(CLI::App&, Context&);

// Parses the command line with the commands `register_commands` adds, runs
// one, prints any error once, and returns the exit status.
int run_app(int argc, char** argv, CommandSet register_commands);

// Every command of the cudaenv executable.
void register_all_commands(CLI::App& app, Context& ctx);

}  // namespace cudaenv
