#pragma once
// The options of the commands that download (install, sync, mirror create),
// with one help text each.
#include <optional>

namespace CLI {
class App;
}

namespace cudaenv {

struct DownloadOptions {
    std::optional<int> connections;  // unset: $CUDAENV_CONNECTIONS, else 4 (install::choose_connections)
    bool quiet = false;   // no progress display
};

// Adds --connections N and -q,--quiet to `cmd`.
void add_download_options(CLI::App* cmd, DownloadOptions& opts);

}  // namespace cudaenv
