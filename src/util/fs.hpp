#pragma once
// File helpers; knows nothing of CUDA. All strings are UTF-8, on Windows too.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cudaenv::fsx {

namespace fs = std::filesystem;

// UTF-8 <-> path, the same on every platform (std::filesystem's narrow
// strings are the ANSI code page on Windows, so never use .string() there).
fs::path from_utf8(std::string_view s);
std::string to_utf8(const fs::path& p);

// The whole file, or nullopt when it cannot be read. `max_bytes` guards
// against reading something huge by mistake.
std::optional<std::string> read_file(const fs::path& p, size_t max_bytes = 16u << 20);

// Why a file could not be read, for files whose absence means "empty" but
// whose other failures must be reported (config.toml, checks.toml).
enum class ReadStatus {
    ok,
    missing,      // nothing there (a dangling link counts as missing)
    not_a_file,   // a folder, FIFO, device...: never opened for reading, so never blocks
    too_large,    // over max_bytes
    link_loop,    // a symbolic link that loops
    not_a_folder, // a path component is a file ("<file>/config.toml")
    error,        // anything else (permission, I/O); `detail` says what
};
struct ReadResult {
    ReadStatus status = ReadStatus::ok;
    std::string text;    // when ok
    std::string detail;  // the OS's words, when error
};
// Reads a regular file of at most `max_bytes`, telling apart why it failed.
ReadResult read_regular_file(const fs::path& p, size_t max_bytes);

// Writes through a temporary file in the same folder and renames it over the
// target, so a reader sees the old content or the new one, never a mix. The
// data is flushed to disk before the rename and the folder after it, so a
// crash or power loss leaves the old file or the new one, never an empty one.
// Throws cudaenv::Error naming the file on failure.
//
// `cache`: the same rename, without waiting for the disk. For the store's
// caches only (cache/*.txt): after a crash such a file may read empty or
// cut short, which their readers take as "nothing kept" and work out again,
// and a switch that misses its cache does not wait milliseconds on a flush.
enum class Durability { durable, cache };
void write_file_atomic(const fs::path& p, std::string_view content, Durability how = Durability::durable);

// Non-throwing tests (permission errors count as "no").
bool is_dir(const fs::path& p);
bool is_file(const fs::path& p);
bool exists(const fs::path& p);

// Lexically normal absolute form, without resolving links.
fs::path absolute_normal(const fs::path& p);
// Whether `p` is that form already, told from its text alone (POSIX: "/"
// or "/a/b" with no empty, "." or ".." part; on Windows always false).
bool is_absolute_normal(const fs::path& p);

// A relative path, '/'-separated, that stays inside its base: no absolute
// path, drive letter, backslash, "." or ".." part, or empty part. For paths
// read from files (manifests, locks) before they are joined to a folder or URL.
bool is_safe_relative(std::string_view p);

}  // namespace cudaenv::fsx
