#pragma once
namespace cudaenv {
// Parses the command line, runs one command, prints any error once, returns the exit status.
int run_app(int argc, char** argv);
}
