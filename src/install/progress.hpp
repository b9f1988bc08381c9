#pragma once
// One status line on stderr for downloads and extraction: bytes, rate, ETA.
// Drawn only when stderr is a terminal and --quiet is not given.
#include <chrono>
#include <cstdint>
#include <string>

namespace cudaenv::install {

class Progress {
public:
    // `total` 0 means unknown (no ETA).
    Progress(std::string label, uint64_t total, bool enabled);
    ~Progress();
    // Absolute bytes done; redraws at most ten times a second.
    void update(uint64_t done);
    void set_total(uint64_t total) { total_ = total; }
    // Draws the last state and ends the line.
    void finish();

    // "1.5 MiB", "700.0 MiB", "2.3 GiB"
    static std::string human_bytes(double bytes);

private:
    void draw(bool final);
    std::string label_;
    uint64_t total_;
    uint64_t done_ = 0;
    uint64_t start_done_ = 0;
    bool enabled_;
    bool drawn_ = false;
    bool finished_ = false;
    std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace cudaenv::install
