#include "install/progress.hpp"

#include <cstdio>
#include <iostream>

namespace cudaenv::install {

Progress::Progress(std::string label, uint64_t total, bool enabled)
    : label_(std::move(label)), total_(total), enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
    if (drawn_ && !finished_) std::cerr << "\n";  // leave the error message on its own line
}

std::string Progress::human_bytes(double bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
    return buf;
}

void Progress::update(uint64_t done) {
    if (!enabled_) return;
    if (!drawn_ && done_ == 0) start_done_ = done;  // a resumed download: rate counts new bytes only
    done_ = done;
    auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    draw(false);
}

void Progress::finish() {
    if (!enabled_ || finished_) return;
    draw(true);
    std::cerr << "\n";
    finished_ = true;
}

void Progress::draw(bool final) {
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double rate = secs > 0 ? static_cast<double>(done_ - start_done_) / secs : 0;
    std::string line = "  " + label_ + "  " + human_bytes(static_cast<double>(done_));
    if (total_) {
        line += " / " + human_bytes(static_cast<double>(total_));
        char pct[16];
        std::snprintf(pct, sizeof pct, " %3d%%", static_cast<int>(100.0 * static_cast<double>(done_) /
                                                                  static_cast<double>(total_)));
        line += pct;
    }
    line += "  " + human_bytes(rate) + "/s";
    if (total_ && rate > 0 && !final && done_ < total_) {
        auto eta = static_cast<long>(static_cast<double>(total_ - done_) / rate);
        char buf[32];
        std::snprintf(buf, sizeof buf, "  ETA %ld:%02ld", eta / 60, eta % 60);
        line += buf;
    }
    std::cerr << "\r" << line << "\x1b[K" << std::flush;
    drawn_ = true;
}

}  // namespace cudaenv::install
