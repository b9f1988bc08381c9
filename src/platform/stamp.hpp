#pragma once
// What one stat says about a path (following links on POSIX): enough to tell
// that a file or folder changed since it was last looked at. The time of
// change and the file's identity are part of it: `cp -p`, `rsync -a` and
// `tar x` put back a file's old mtime and size, never its ctime or inode.
#include <filesystem>
#include <optional>
#include <string>

namespace cudaenv::platform {

struct FileStamp {
    long long mtime_ns = 0;       // modification time; compared for equality only
    long long ctime_ns = 0;       // status change time (Windows: ChangeTime)
    unsigned long long id = 0;    // inode (Windows: file index), mixed with the device (volume)
    unsigned long long size = 0;
    bool dir = false;
};
// nullopt when `p` does not exist or cannot be read.
std::optional<FileStamp> file_stamp(const std::filesystem::path& p);
// The same for a UTF-8 path held as text (no std::filesystem::path to build:
// the detection cache stats a few dozen of them on every switch).
std::optional<FileStamp> file_stamp(const std::string& utf8);

}  // namespace cudaenv::platform
