#pragma once
// The read side of extraction: the archive's bytes read once, hashed on the
// way (SHA-256) and, for .xz, decoded on a thread of their own with
// liblzma's multi-threaded decoder, so reading, hashing and decoding overlap
// with libarchive's parsing and the writes (what `tar -xJf` gets from its
// separate `xz -d` process). Used by archive.cpp only.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "install/sha256.hpp"

namespace cudaenv::install {

// Feeds the archive's bytes in blocks and hashes every byte on the way.
struct ArchiveReader {
    std::ifstream in;
    std::vector<char> buf = std::vector<char>(1 << 20);
    Sha256 hash;
    uint64_t read = 0;
    uint64_t limit = 0;  // 0 = none
    std::atomic<bool> over_limit = false;
    std::atomic<bool> io_error = false;
    std::atomic<bool> stopped = false;
    std::function<void(uint64_t)> on_read;     // bytes read so far
    const std::atomic<bool>* stop = nullptr;  // reading ends with an error once it is true

    // Bytes read into buf, 0 at the end, -1 on error.
    long long next();
    // Why next() failed, in a few words.
    const char* failure() const;
};

// Decodes .xz from an ArchiveReader on its own thread.
class XzFeeder {
public:
    explicit XzFeeder(ArchiveReader& r);
    ~XzFeeder();
    XzFeeder(const XzFeeder&) = delete;
    XzFeeder& operator=(const XzFeeder&) = delete;

    // Stops decoding (the reader is then free for the caller) and waits.
    void stop();
    // The next decoded block: its size, 0 at the end, -1 on error.
    long long next(const void** out);
    std::string error();

private:
    void fail(std::string why);
    bool push(std::vector<char> block);  // false when asked to stop
    std::vector<char> fresh_block();     // a block to decode into: a used one when there is one
    void run();

    ArchiveReader& r_;
    std::thread thread_;
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::vector<char>> q_;
    std::vector<char> current_;
    std::vector<std::vector<char>> spare_;  // blocks libarchive is done with, reused: no new pages per MiB
    bool done_ = false, failed_ = false, stop_ = false;
    std::string error_;
};

}  // namespace cudaenv::install
