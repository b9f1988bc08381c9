#pragma once
// Getting a set of archives and working on each as soon as it is complete:
// downloads run in parallel (http.hpp) on this thread while worker threads
// unpack (or hash) the archives already there. Used by install, sync and
// `mirror create`.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cudaenv::install {

namespace fs = std::filesystem;

class ProgressBoard;

struct FetchJob {
    std::string label;  // what the progress display calls it
    std::string url;    // "" = `file` is a local file already (a mirror folder, an archive given)
    fs::path file;      // where the complete file is (downloads: <file>.part until then)
    uint64_t size = 0;  // the manifest's size (required for downloads)
};

struct FetchOptions {
    int connections = 4;  // downloads at once
    int workers = 0;      // worker threads; 0 = one per CPU (at least 2 while downloads run)
};

// Calls `work(i, stop)` on a worker thread for each job as soon as its file
// is complete, the largest jobs first; the board shows downloads, `work`
// reports its own progress.
// The first exception (from a download or from `work`) stops the rest (`stop`
// becomes true: long work should check it) and is rethrown once every thread
// has finished.
void fetch_all(const std::vector<FetchJob>& jobs, const std::function<void(size_t, const std::atomic<bool>&)>& work,
               const FetchOptions& opts, ProgressBoard& board, const std::vector<size_t>& board_items);

// The number of download connections: --connections, else CUDAENV_CONNECTIONS, else 4.
// Throws UsageError for a value that is not 1 to 64.
int choose_connections(int flag);

}  // namespace cudaenv::install
