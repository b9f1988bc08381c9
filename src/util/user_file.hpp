#pragma once
// Files outside the store that a user names or owns: `export -o`, `trace
// --json=FILE`, kernelspecs, the profiles `setup` edits. One writer for all
// of them, which keeps what is at the path as the user made it:
//   - a symbolic link is written through (its chain's end is the file; a
//     link to nothing is refused), never replaced by a file;
//   - a character device or a FIFO (/dev/stdout, /dev/null, a pipe) is
//     written directly, never renamed over;
//   - a regular file is replaced through a temporary file beside it and a
//     rename (a reader sees the old text or the new, never a mix), keeping
//     its mode and, where permitted, its owner; one with other hard links
//     is rewritten in place, so every name still sees the same file;
//   - a folder, a socket or a block device is refused with the reason, and
//     so is a read-only file; no parent folder is ever created.
// The temporary file has no name while it is written (O_TMPFILE where the
// file system has it); one that a killed writer left behind
// (.cudaenv-tmp.<pid>.<n>.<name>) is removed by the next write into that
// folder. Knows nothing of CUDA.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cudaenv::fsx {

namespace fs = std::filesystem;

// The folder that holds `p`'s entry: its parent, or "." for a bare name.
fs::path folder_of(const fs::path& p);

enum class TargetKind { absent, file, device, fifo, folder, dangling_link, other };

struct Target {
    TargetKind kind = TargetKind::absent;
    fs::path path;              // where the bytes go: the path itself, or its link chain's end
    bool via_link = false;      // `path` was reached through a symbolic link
    bool read_only = false;     // a file without write permission for its owner (root too) or for us
    std::uintmax_t links = 1;   // hard links of a file
    std::string detail;         // kind other: what it is ("a socket", "a link that loops", the OS's words)
};

// What is at `p`, following symbolic links.
Target inspect_target(const fs::path& p);

// Throws the error write_user_file would for what is at `p` now (a folder, a
// link to nothing, a read-only file, a missing or unwritable folder), so a
// command can refuse before it does its work (`trace --json=FILE`).
void check_user_file_writable(const fs::path& p);

// Writes `content` as the whole of `p` by the rules above. Throws Error
// naming the file (and nothing is changed) when it cannot.
void write_user_file(const fs::path& p, std::string_view content);

// Appends `content` with one O_APPEND write, so lines other processes append
// meanwhile are all kept ($GITHUB_ENV). A file that does not end with a line
// break gets one first. Creates the file (not its folder) when absent.
void append_user_file(const fs::path& p, std::string_view content);

// The text of `p` for a read-modify-write: nullopt when nothing is there, ""
// for a character device (never read: it may be a terminal). Throws Error
// (saying nothing was written) for what must not be rewritten from a partial
// read: a file over `max_bytes`, one that cannot be read, a FIFO, a folder,
// a link to nothing. `what` names the writer in the message ("dotenv").
std::optional<std::string> read_user_file(const fs::path& p, size_t max_bytes, std::string_view what);

// Held while a user file is read, changed and written (parallel exports into
// one CMakeUserPresets.json or .env keep every change): POSIX locks the
// folder that holds the file (flock on the folder, so nothing is created
// beside it), Windows a named mutex of the file's path. Waits; best effort on
// file systems without locks. Released when destroyed or the process ends.
class UserFileLock {
public:
    explicit UserFileLock(const fs::path& file);
    ~UserFileLock();
    UserFileLock(const UserFileLock&) = delete;
    UserFileLock& operator=(const UserFileLock&) = delete;

private:
    std::intptr_t handle_ = -1;
};

// The platform's part, for user_file.cpp.
namespace user_file_os {
// Opens `t.path` (device, FIFO or file) and writes `content` from its start
// (truncating a file).
void write_in_place(const fs::path& path, std::string_view content, bool truncate);
// Replaces the file at `path` (a regular file, or nothing) through a
// temporary file in its folder, with `like`'s mode and owner when given.
void replace(const fs::path& path, std::string_view content, const Target* like);
void append(const fs::path& path, std::string_view content, bool create);
// Whether a new file can be created in `dir` by this process.
bool can_create_in(const fs::path& dir);
}  // namespace user_file_os

}  // namespace cudaenv::fsx
