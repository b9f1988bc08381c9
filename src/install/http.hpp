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

// The body of `url` (at most 64 MiB); throws Error with a hint on failure.
std::string http_get(const std::string& url);

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
// <file>.part resumes with a range request (a server that ignores ranges
// makes it start over). Stops early when `stop` becomes true. Throws Error
// on the first failure, after stopping the others: their .part files stay,
// so the next run resumes them.
void download_all(const std::vector<Download>& items, int connections, const DownloadCallbacks& cb,
                  const std::atomic<bool>& stop);

}  // namespace cudaenv::install
