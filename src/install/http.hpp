#pragma once
// HTTP through libcurl: small GETs (manifests, listing pages) and the
// parallel, resumable downloads of archives (one libcurl multi handle, a
// bounded number of transfers at once).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace cudaenv::install {

namespace fs = std::filesystem;

// What bounds a download (docs/install.md, "Limits"), from the environment:
// CUDAENV_HTTP_TIMEOUT (seconds, default 120): a manifest or listing must be
// complete by then, and an archive's download must by then average at least
// CUDAENV_MIN_RATE (bytes a second, default 10K; 0: no minimum) to go on;
// CUDAENV_MAX_ARCHIVE_SIZE (default 8G; NVIDIA's largest archive is about
// 3 GB): no archive that a lock or manifest says is larger is downloaded.
// Numbers may end in K, M, G or T (binary). Throws UsageError naming the
// variable for a value that is no such number.
struct HttpLimits {
    long deadline_s = 120;
    uint64_t min_rate = 10240;
    uint64_t max_archive = uint64_t{8} << 30;
};
HttpLimits http_limits();

// The body of `url` (at most `max_bytes`), complete within the deadline;
// throws Error with a hint on failure (a 404 says the mirror lacks the file).
std::string http_get(const std::string& url, size_t max_bytes = 64u << 20);

struct Download {
    std::string url;
    fs::path file;      // the complete file; bytes arrive in <file>.part first
    uint64_t size = 0;  // what the manifest says: the file must be exactly this big
};

struct DownloadCallbacks {
    std::function<void(size_t, uint64_t)> progress;  // item, bytes on disk so far (first call: a resumed file's bytes)
    std::function<void(size_t)> complete;            // item's file is complete (renamed from .part)
};

// Runs every download with at most `connections` at once. A file already
// complete (its size right) is reported complete without a transfer; a
// <file>.part resumes with a range request (a server that ignores ranges,
// answering 200 or refusing the range, makes it start over from byte 0 in
// the same run). Stops early when `stop` becomes true. Throws Error on the
// first failure, after stopping the others: their .part files stay, so the
// next run resumes them.
void download_all(const std::vector<Download>& items, int connections, const DownloadCallbacks& cb,
                  const std::atomic<bool>& stop);

}  // namespace cudaenv::install
