// The parts of util/fs that need the OS: reading without blocking on odd
// files, and durable atomic writes (write, flush, MoveFileEx write-through).
#include <windows.h>

#include <algorithm>
#include <fstream>
#include <random>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::fsx {

fs::path from_utf8(std::string_view s) {
    return fs::path(std::u8string(reinterpret_cast<const char8_t*>(s.data()), s.size()));
}

std::string to_utf8(const fs::path& p) {
    auto u8 = p.u8string();
    return std::string(reinterpret_cast<const char*>(u8.data()), u8.size());
}

// Drive letters, UNC names and both slashes: lexically_normal decides.
bool is_absolute_normal(const fs::path&) { return false; }

std::optional<std::string> read_file(const fs::path& p, size_t max_bytes) {
    std::ifstream in(p, std::ios::binary);
    if (!in) return std::nullopt;
    std::string out;
    char buf[8192];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        out.append(buf, static_cast<size_t>(in.gcount()));
        if (out.size() > max_bytes) return std::nullopt;
    }
    if (in.bad()) return std::nullopt;
    return out;
}

ReadResult read_regular_file(const fs::path& p, size_t max_bytes) {
    ReadResult r;
    std::error_code ec;
    auto st = fs::status(p, ec);
    if (ec || !fs::exists(st)) {
        r.status = (ec && ec != std::errc::no_such_file_or_directory) ? ReadStatus::error : ReadStatus::missing;
        r.detail = ec.message();
        if (ec == std::errc::too_many_symbolic_link_levels) r.status = ReadStatus::link_loop;
        if (ec == std::errc::not_a_directory) r.status = ReadStatus::not_a_folder;
        return r;
    }
    if (!fs::is_regular_file(st)) {
        r.status = ReadStatus::not_a_file;
        return r;
    }
    auto size = fs::file_size(p, ec);
    if (!ec && size > max_bytes) {
        r.status = ReadStatus::too_large;
        return r;
    }
    std::ifstream in(p, std::ios::binary);
    if (!in) {
        r.status = ReadStatus::error;
        r.detail = "cannot open";
        return r;
    }
    char buf[16384];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
        r.text.append(buf, static_cast<size_t>(in.gcount()));
        if (r.text.size() > max_bytes) {
            r.status = ReadStatus::too_large;
            r.text.clear();
            return r;
        }
    }
    if (in.bad()) {
        r.status = ReadStatus::error;
        r.detail = "read error";
        r.text.clear();
    }
    return r;
}

void write_file_atomic(const fs::path& p, std::string_view content, Durability how) {
    std::error_code ec;
    auto dir = p.parent_path();
    if (!dir.empty()) fs::create_directories(dir, ec);
    if (ec) throw Error("cannot create folder '" + to_utf8(dir) + "': " + ec.message());
    std::random_device rd;
    fs::path tmp;
    HANDLE h = INVALID_HANDLE_VALUE;
    // A name of our own beside the target (writers at once never share one).
    for (int attempt = 0; attempt < 100 && h == INVALID_HANDLE_VALUE; ++attempt) {
        tmp = p;
        tmp += ".tmp" + std::to_string(rd() % 1000000);
        h = ::CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h == INVALID_HANDLE_VALUE && ::GetLastError() != ERROR_FILE_EXISTS) break;
    }
    if (h == INVALID_HANDLE_VALUE)
        throw Error("cannot write '" + to_utf8(p) + "': permission denied or read-only folder (error " +
                        std::to_string(::GetLastError()) + ")",
                    "check that you own '" + to_utf8(dir) + "'");
    size_t done = 0;
    bool ok = true;
    while (ok && done < content.size()) {
        DWORD chunk = static_cast<DWORD>(std::min<size_t>(content.size() - done, 1u << 30));
        DWORD written = 0;
        ok = ::WriteFile(h, content.data() + done, chunk, &written, nullptr) != 0;
        done += written;
    }
    // The data reaches the disk before the name does (see fs_posix.cpp).
    ok = ok && (how == Durability::cache || ::FlushFileBuffers(h) != 0);
    DWORD err = ok ? 0 : ::GetLastError();
    ::CloseHandle(h);
    if (!ok) {
        ::DeleteFileW(tmp.c_str());
        throw Error("cannot write '" + to_utf8(p) + "' (error " + std::to_string(err) + "; disk full?)");
    }
    // WRITE_THROUGH: returns once the rename is on disk.
    const DWORD flags = MOVEFILE_REPLACE_EXISTING | (how == Durability::durable ? MOVEFILE_WRITE_THROUGH : 0);
    if (!::MoveFileExW(tmp.c_str(), p.c_str(), flags)) {
        err = ::GetLastError();
        ::DeleteFileW(tmp.c_str());
        throw Error("cannot replace '" + to_utf8(p) + "' (error " + std::to_string(err) + ")", "is it open elsewhere?");
    }
}

}  // namespace cudaenv::fsx
