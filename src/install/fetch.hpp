#pragma once
// Getting a set of archives and working on each as soon as it is complete:
// downloads run in parallel (http.hpp) on this thread while worker threads
// unpack (or hash) the archives already there. Used by install, sync and
// `mirror create`.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
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

// The jobs whose files are complete, handed to the worker threads largest
// first: downloads finish in whatever order the connections allow, and the
// largest archive (cuDNN, cuBLAS) takes longest to unpack, so it starts as
// soon as it is there instead of running alone at the end.
class ReadyQueue {
public:
    explicit ReadyQueue(const std::vector<FetchJob>& jobs) : jobs_(jobs) {}
    void push(size_t job);
    // No more pushes: pop() returns false once the queue is empty.
    void close();
    // Records the first failure and wakes everyone.
    void fail(std::exception_ptr e);
    // The largest ready job; false when there is none left or the run stopped.
    bool pop(size_t& job);
    const std::atomic<bool>& stop() const { return stop_; }
    std::exception_ptr first() const { return first_; }

private:
    const std::vector<FetchJob>& jobs_;
    std::mutex m_;
    std::condition_variable cv_;
    std::vector<size_t> ready_;
    bool closed_ = false;
    std::atomic<bool> stop_ = false;
    std::exception_ptr first_;
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
int choose_connections(std::optional<int> flag);

}  // namespace cudaenv::install
