#pragma once
// libarchive up to 3.7 (Debian 12 ships 3.6.2) learns the process umask by
// setting it to 0 and back, in archive_write_disk_new() and in every
// archive_write_header() (CVE-2023-30571; libarchive issue 1876). With two
// extractions at once, each can read the other's 0: the folders it makes get
// mode 0777, and the umask can stay 0 for the rest of the process, so a
// shared system store fills with world-writable folders. An install extracts
// on several threads while it downloads: each of those calls, and each file or
// folder made while extraction may run (the downloads' .part files), holds
// this one lock. tests/unit/install/archive_test.cpp extracts on four threads at once.
#include <mutex>

namespace cudaenv::install {

inline std::mutex& umask_lock() {
    static std::mutex m;
    return m;
}

}  // namespace cudaenv::install
