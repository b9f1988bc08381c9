#include "commands/download_options.hpp"

#include <CLI/CLI.hpp>

namespace cudaenv {

void add_download_options(CLI::App* cmd, DownloadOptions& opts) {
    cmd->add_option("--connections", opts.connections, "Downloads at once, 1 to 64 (default $CUDAENV_CONNECTIONS, else 4)");
    cmd->add_flag("-q,--quiet", opts.quiet, "No progress display");
}

}  // namespace cudaenv
