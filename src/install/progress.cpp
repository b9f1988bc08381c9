#include "install/progress.hpp"

#include <cstdio>
#include <iostream>

#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

// Lines stay shorter than the narrowest usual terminal, so none wraps and
// moving the cursor up by the number of lines drawn lands on the first.
constexpr size_t kLabelWidth = 34;

std::string pad(std::string s, size_t width) {
    if (s.size() > width) s = s.substr(0, width - 1) + "~";
    s.resize(width, ' ');
    return s;
}

std::string percent(uint64_t done, uint64_t total) {
    if (!total) return "";
    char buf[16];
    std::snprintf(buf, sizeof buf, " %3d%%", static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(total)));
    return buf;
}

}  // namespace

ProgressBoard::ProgressBoard(bool enabled) : enabled_(enabled), start_(std::chrono::steady_clock::now()) {}

ProgressBoard::~ProgressBoard() { clear(); }

size_t ProgressBoard::add(std::string label, uint64_t size, bool download) {
    std::lock_guard lock(m_);
    items_.push_back({std::move(label), size, 0, 0, download, Phase::waiting});
    return items_.size() - 1;
}

void ProgressBoard::downloading(size_t item, uint64_t done) {
    if (!enabled_) return;
    std::lock_guard lock(m_);
    auto& it = items_.at(item);
    if (it.phase == Phase::waiting) resumed_bytes_ += done;  // the first report is what a resumed file already had
    it.phase = Phase::download;
    it.downloaded = done;
    draw_locked(false);
}

void ProgressBoard::unpacking(size_t item, uint64_t done) {
    if (!enabled_) return;
    std::lock_guard lock(m_);
    auto& it = items_.at(item);
    if (it.download) it.downloaded = it.size;
    it.phase = Phase::unpack;
    it.unpacked = done;
    draw_locked(false);
}

void ProgressBoard::finished(size_t item) {
    if (!enabled_) return;
    std::lock_guard lock(m_);
    auto& it = items_.at(item);
    it.phase = Phase::done;
    if (it.download) it.downloaded = it.size;
    it.unpacked = it.size;
    draw_locked(true);
}

void ProgressBoard::clear() {
    if (!enabled_) return;
    std::lock_guard lock(m_);
    if (drawn_lines_) std::cerr << "\x1b[" << drawn_lines_ << "F\x1b[J" << std::flush;
    drawn_lines_ = 0;
}

std::vector<std::string> ProgressBoard::lines_locked() const {
    std::vector<std::string> out;
    size_t done = 0;
    bool any_download = false;
    uint64_t bytes = 0, total = 0;
    for (const auto& it : items_) {
        any_download = any_download || it.download;
        if (it.phase == Phase::done) ++done;
        if (it.phase != Phase::download && it.phase != Phase::unpack) continue;
        bool dl = it.phase == Phase::download;
        uint64_t now = dl ? it.downloaded : it.unpacked;
        out.push_back("  " + pad(it.label, kLabelWidth) + (dl ? " download " : " unpack   ") +
                      str::human_bytes(static_cast<double>(now)) +
                      (it.size ? " / " + str::human_bytes(static_cast<double>(it.size)) : "") + percent(now, it.size));
    }
    for (const auto& it : items_) {
        if (any_download && !it.download) continue;
        total += it.size;
        bytes += any_download ? it.downloaded : it.unpacked;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    double fresh = static_cast<double>(bytes > resumed_bytes_ ? bytes - resumed_bytes_ : 0);
    double rate = secs > 0.2 ? fresh / secs : 0;
    std::string line = "  total: " + std::to_string(done) + "/" + std::to_string(items_.size()) + " archives, " +
                       str::human_bytes(static_cast<double>(bytes)) + " / " +
                       str::human_bytes(static_cast<double>(total)) + (any_download ? " downloaded" : " read") +
                       percent(bytes, total);
    if (rate > 0) {
        line += ", " + str::human_bytes(rate) + "/s";
        if (total > bytes) {
            auto eta = static_cast<long>(static_cast<double>(total - bytes) / rate);
            char buf[32];
            std::snprintf(buf, sizeof buf, ", ETA %ld:%02ld", eta / 60, eta % 60);
            line += buf;
        }
    }
    out.push_back(line);
    return out;
}

void ProgressBoard::draw_locked(bool force) {
    auto now = std::chrono::steady_clock::now();
    if (!force && drawn_lines_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
    last_draw_ = now;
    std::string text;
    if (drawn_lines_) text = "\x1b[" + std::to_string(drawn_lines_) + "F";  // back to the first line drawn
    auto lines = lines_locked();
    for (const auto& l : lines) text += "\r" + l + "\x1b[K\n";
    text += "\x1b[J";  // lines left over from a taller board
    std::cerr << text << std::flush;
    drawn_lines_ = lines.size();
}

}  // namespace cudaenv::install
