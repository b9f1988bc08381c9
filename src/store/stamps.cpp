#include "store/stamps.hpp"

#include <charconv>
#include <optional>
#include <stdexcept>

#include "platform/stamp.hpp"
#include "util/records.hpp"

namespace cudaenv {

namespace {

// Written into one buffer: a kept activation stats and compares ~30 of these
// per call (docs/performance.md).
std::string stamp_text(const std::optional<platform::FileStamp>& st) {
    if (!st) return "-";
    char buf[4 * 17];  // four 64-bit values in hex and three colons fit
    char* const end = buf + sizeof buf;
    char* p = buf;
    auto put = [&](unsigned long long v, bool first) {
        if (!first && p != end) *p++ = ':';  // the check keeps GCC's -O3 overflow analysis quiet
        p = std::to_chars(p, end, v, 16).ptr;
    };
    put(static_cast<unsigned long long>(st->mtime_ns), true);
    put(static_cast<unsigned long long>(st->ctime_ns), false);
    put(st->id, false);
    if (!st->dir) put(st->size, false);
    return std::string(buf, p);
}

}  // namespace

std::string path_stamp(const std::filesystem::path& p) { return stamp_text(platform::file_stamp(p)); }

std::string path_stamp(const std::string& utf8) { return stamp_text(platform::file_stamp(utf8)); }

void put_stamps(std::vector<std::string>& fields, const Stamps& key) {
    fields.push_back(std::to_string(key.size()));
    for (const auto& [p, st] : key) fields.insert(fields.end(), {p, st});
}

bool stamps_hold(records::Fields& f, Stamps& read) {
    read.clear();
    auto n = f.number();
    if (n < 0 || n > 100000) throw std::out_of_range("record: bad stamp count");
    // All of them are read even past a stale one: the caller reads on after them.
    bool hold = true;
    for (long long i = 0; i < n; ++i) {
        auto path = f.str();
        auto kept = f.str();
        if (hold && path_stamp(path) != kept) hold = false;
        read.emplace_back(std::move(path), std::move(kept));
    }
    return hold;
}

bool stamps_hold(records::Fields& f) {
    Stamps read;
    return stamps_hold(f, read);
}

}  // namespace cudaenv
