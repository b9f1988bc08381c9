#pragma once
// Streaming extraction of NVIDIA archives (.tar.xz, .zip) with libarchive,
// hashing the archive bytes in the same pass. Every entry is checked before
// anything is written; a hostile archive stops the extraction with an Error
// and nothing is ever written outside `dest`.
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace cudaenv::install {

namespace fs = std::filesystem;

struct ExtractOptions {
    fs::path dest;                   // an existing folder (the staging folder)
    std::string expect_sha256;       // "" = not checked (the hash is still returned)
    uint64_t expect_size = 0;        // 0 = unknown; else the archive must be exactly this big
    std::string top_files_dir;       // put files found at the top of the archive here ("" = keep)
    std::function<void(uint64_t)> on_read;     // archive bytes read so far (progress)
    const std::atomic<bool>* stop = nullptr;  // stops with an error once it becomes true
};

struct ExtractResult {
    std::string sha256;
    uint64_t archive_bytes = 0;
    uint64_t entries = 0;
    uint64_t bytes_written = 0;
    std::string top;  // the archive's top folder (stripped)
};

// Throws cudaenv::Error: hostile entry, damaged/truncated archive, size or
// sha256 mismatch, write failure (disk full). The caller discards `dest`.
ExtractResult extract_archive(const fs::path& archive, const ExtractOptions& opt);

// The member path as components joined by '/', with '\' read as a separator.
// nullopt with `why` set for absolute paths, drive letters, ".." or empty names.
std::optional<std::string> clean_member_path(const std::string& name, std::string* why);

// True when the symlink at `link` (relative path inside the root) with target
// `target` stays inside the root: relative, ".." only as leading components
// and never climbing above the root.
bool symlink_stays_inside(const std::string& link, const std::string& target);

// Uncompressed bytes allowed for an archive of `archive_size` bytes.
uint64_t max_unpacked_size(uint64_t archive_size);

}  // namespace cudaenv::install
