#pragma once
// One progress display on stderr for an install's parallel downloads and
// unpacking: a line per archive being downloaded or unpacked, then a total
// (archives done, bytes, rate, ETA), redrawn in place at most ten times a
// second. Drawn only when stderr is a terminal and --quiet is not given;
// updated from the download loop and the unpacking threads alike.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace cudaenv::install {

class ProgressBoard {
public:
    explicit ProgressBoard(bool enabled);
    ~ProgressBoard();  // clears what it drew
    ProgressBoard(const ProgressBoard&) = delete;
    ProgressBoard& operator=(const ProgressBoard&) = delete;

    // An archive of `size` bytes (0 = unknown); returns its number.
    size_t add(std::string label, uint64_t size, bool download);
    // Absolute bytes done so far.
    void downloading(size_t item, uint64_t done);
    void unpacking(size_t item, uint64_t done);
    void finished(size_t item);
    // Clears the display (before the summary on stdout, or an error).
    void clear();

private:
    enum class Phase { waiting, download, unpack, done };
    struct Item {
        std::string label;
        uint64_t size = 0, downloaded = 0, unpacked = 0;
        bool download = false;
        Phase phase = Phase::waiting;
    };
    void draw_locked(bool force);
    std::vector<std::string> lines_locked() const;

    bool enabled_;
    std::mutex m_;
    std::vector<Item> items_;
    size_t drawn_lines_ = 0;
    uint64_t resumed_bytes_ = 0;  // bytes already on disk when downloads began: not counted in the rate
    std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace cudaenv::install
