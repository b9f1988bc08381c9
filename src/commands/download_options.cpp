#include "commands/download_options.hpp"

#include <CLI/CLI.hpp>

namespace cudaenv {

void add_download_options(CLI::App* cmd, DownloadOptions& opts) {
    // Through a function: "given" and "0" differ (0 is refused, not the default).
    cmd->add_option_function<int>(
        "--connections", [&opts](const int& n) { opts.connections = n; },
        "Downloads at once, 1 to 64 (default $CUDAENV_CONNECTIONS, else 4)");
    cmd->add_flag("-q,--quiet", opts.quiet, "No progress display");
}

}  // namespace cudaenv
