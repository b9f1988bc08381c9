#pragma once
// What one stat says about a path (following links on POSIX): enough to tell
// that a file or folder changed since it was last looked at.
#include <filesystem>
#include <optional>
#include <string>

namespace cudaenv::platform {

struct FileStamp {
    long long mtime_ns = 0;       // modification time; compared for equality only
    unsigned long long size = 0;
    bool dir = false;
};
// nullopt when `p` does not exist or cannot be read.
std::optional<FileStamp> file_stamp(const std::filesystem::path& p);
// The same for a UTF-8 path held as text (no std::filesystem::path to build:
// the detection cache stats a few dozen of them on every switch).
std::optional<FileStamp> file_stamp(const std::string& utf8);

}  // namespace cudaenv::platform
