#pragma once
// What one stat says about a path (following links on POSIX): enough to tell
// that a file or folder changed since it was last looked at.
#include <filesystem>
#include <optional>

namespace cudaenv::platform {

struct FileStamp {
    long long mtime_ns = 0;       // modification time; compared for equality only
    unsigned long long size = 0;
    bool dir = false;
};
// nullopt when `p` does not exist or cannot be read.
std::optional<FileStamp> file_stamp(const std::filesystem::path& p);

}  // namespace cudaenv::platform
