// util/user_file.hpp on Windows: std::filesystem to see what is at a path
// (links followed), a temporary file beside the target swapped in with
// ReplaceFileW (which keeps the old file's attributes and ACL), a named mutex
// per file path as the read-modify-write lock.
#include <windows.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv::fsx {

namespace {

constexpr std::string_view tmp_prefix = ".cudaenv-tmp.";

[[noreturn]] void fail(const std::string& what, const fs::path& p, DWORD err) {
    throw Error("cannot " + what + " '" + to_utf8(p) + "' (error " + std::to_string(err) + ")",
                err == ERROR_ACCESS_DENIED ? "check its permissions and its folder's" : "");
}

bool write_all(HANDLE h, std::string_view content) {
    for (size_t done = 0; done < content.size();) {
        DWORD chunk = static_cast<DWORD>(std::min<size_t>(content.size() - done, 1u << 30));
        DWORD written = 0;
        if (!::WriteFile(h, content.data() + done, chunk, &written, nullptr)) return false;
        done += written;
    }
    return true;
}

bool process_gone(unsigned long pid) {
    HANDLE h = ::OpenProcess(SYNCHRONIZE, FALSE, pid);
    if (!h) return ::GetLastError() == ERROR_INVALID_PARAMETER;  // no such process
    bool gone = ::WaitForSingleObject(h, 0) == WAIT_OBJECT_0;
    ::CloseHandle(h);
    return gone;
}

void remove_stale_temps(const fs::path& dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        auto name = to_utf8(e.path().filename());
        if (!name.starts_with(tmp_prefix)) continue;
        auto rest = name.substr(tmp_prefix.size());
        unsigned long pid = std::strtoul(rest.substr(0, rest.find('.')).c_str(), nullptr, 10);
        std::error_code ec2;
        if ((pid == 0 || process_gone(pid)) && e.is_regular_file(ec2)) fs::remove(e.path(), ec2);
    }
}

}  // namespace

Target inspect_target(const fs::path& p) {
    Target t;
    t.path = p;
    std::error_code ec;
    auto ls = fs::symlink_status(p, ec);
    if (ec || ls.type() == fs::file_type::not_found) {
        if (ec && ec != std::errc::no_such_file_or_directory) {
            t.kind = TargetKind::other;
            t.detail = "unreachable (" + ec.message() + ")";
        }
        return t;
    }
    if (ls.type() == fs::file_type::symlink) {
        t.via_link = true;
        auto to = fs::canonical(p, ec);
        if (ec) {
            std::error_code ec2;
            auto link = fs::read_symlink(p, ec2);
            t.kind = TargetKind::dangling_link;
            t.path = ec2 ? p : (link.is_absolute() ? link : folder_of(p) / link);
            return t;
        }
        t.path = to;
    }
    auto st = fs::status(t.path, ec);
    switch (st.type()) {
        case fs::file_type::regular:
            t.kind = TargetKind::file;
            t.links = fs::hard_link_count(t.path, ec);
            t.read_only = (st.permissions() & fs::perms::owner_write) == fs::perms::none;
            break;
        case fs::file_type::directory: t.kind = TargetKind::folder; break;
        case fs::file_type::character: t.kind = TargetKind::device; break;
        case fs::file_type::fifo: t.kind = TargetKind::fifo; break;
        default:
            t.kind = TargetKind::other;
            t.detail = "not a regular file";
    }
    return t;
}

namespace user_file_os {

void write_in_place(const fs::path& path, std::string_view content, bool truncate) {
    HANDLE h = ::CreateFileW(path.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                             truncate ? TRUNCATE_EXISTING : OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) fail("write", path, ::GetLastError());
    bool ok = write_all(h, content);
    DWORD err = ok ? 0 : ::GetLastError();
    ::CloseHandle(h);
    if (!ok) fail("write", path, err);
}

void replace(const fs::path& path, std::string_view content, const Target* like) {
    const auto dir = folder_of(path);
    remove_stale_temps(dir);
    std::random_device rd;
    fs::path tmp;
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int attempt = 0; attempt < 100 && h == INVALID_HANDLE_VALUE; ++attempt) {
        tmp = dir / from_utf8(std::string(tmp_prefix) + std::to_string(::GetCurrentProcessId()) + "." +
                              std::to_string(rd() % 1000000) + "." + to_utf8(path.filename()));
        h = ::CreateFileW(tmp.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
        if (h == INVALID_HANDLE_VALUE && ::GetLastError() != ERROR_FILE_EXISTS) break;
    }
    if (h == INVALID_HANDLE_VALUE) fail("write", path, ::GetLastError());
    bool ok = write_all(h, content) && ::FlushFileBuffers(h) != 0;
    DWORD err = ok ? 0 : ::GetLastError();
    ::CloseHandle(h);
    if (!ok) {
        ::DeleteFileW(tmp.c_str());
        fail("write", path, err);
    }
    // ReplaceFileW keeps the old file's attributes and ACL; a new file is moved in.
    bool done = like ? ::ReplaceFileW(path.c_str(), tmp.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr,
                                      nullptr) != 0
                     : ::MoveFileExW(tmp.c_str(), path.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) != 0;
    if (!done) {
        err = ::GetLastError();
        ::DeleteFileW(tmp.c_str());
        fail("replace", path, err);
    }
}

void append(const fs::path& path, std::string_view content, bool create) {
    HANDLE h = ::CreateFileW(path.c_str(), FILE_APPEND_DATA | FILE_READ_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE,
                             nullptr, create ? OPEN_ALWAYS : OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) fail("append to", path, ::GetLastError());
    std::string text;
    LARGE_INTEGER size{};
    char last = '\n';
    DWORD got = 0;
    if (::GetFileSizeEx(h, &size) && size.QuadPart > 0) {
        OVERLAPPED at{};
        at.Offset = static_cast<DWORD>(size.QuadPart - 1);
        at.OffsetHigh = static_cast<DWORD>((size.QuadPart - 1) >> 32);
        if (::ReadFile(h, &last, 1, &got, &at) && got == 1 && last != '\n') {
            text = "\n";
            text += content;
            content = text;
        }
    }
    bool ok = write_all(h, content);
    DWORD err = ok ? 0 : ::GetLastError();
    ::CloseHandle(h);
    if (!ok) fail("append to", path, err);
}

bool can_create_in(const fs::path&) { return true; }  // the write itself says why not

}  // namespace user_file_os

UserFileLock::UserFileLock(const fs::path& file) {
    // A name from the file's full path, case folded: one mutex per file, none on disk.
    auto key = str::to_lower_ascii(to_utf8(absolute_normal(inspect_target(file).path)));
    unsigned long long h = 1469598103934665603ull;  // FNV-1a
    for (unsigned char c : key) h = (h ^ c) * 1099511628211ull;
    char name[64];
    std::snprintf(name, sizeof name, "Local\\cudaenv-file-%016llx", h);
    HANDLE m = ::CreateMutexA(nullptr, FALSE, name);
    if (!m) return;
    DWORD w = ::WaitForSingleObject(m, INFINITE);
    if (w != WAIT_OBJECT_0 && w != WAIT_ABANDONED) {
        ::CloseHandle(m);
        return;
    }
    handle_ = reinterpret_cast<std::intptr_t>(m);
}

UserFileLock::~UserFileLock() {
    if (handle_ == -1) return;
    HANDLE m = reinterpret_cast<HANDLE>(handle_);
    ::ReleaseMutex(m);
    ::CloseHandle(m);
}

}  // namespace cudaenv::fsx
