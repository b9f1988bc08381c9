// The parts of util/fs that need the OS: reading without blocking on odd
// files, and durable atomic writes (write, fsync, rename, fsync the folder).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <random>

#include "util/error.hpp"
#include "util/fd_posix.hpp"
#include "util/fs.hpp"

namespace cudaenv::fsx {

namespace {

ReadStatus status_of(int err) {
    switch (err) {
        case ENOENT: return ReadStatus::missing;
        case ELOOP: return ReadStatus::link_loop;
        case ENOTDIR: return ReadStatus::not_a_folder;
        default: return ReadStatus::error;
    }
}

}  // namespace

// Paths are bytes here, and cudaenv's strings are UTF-8: nothing to convert
// (the char8_t route costs a codecvt call per path, on every adopted folder).
fs::path from_utf8(std::string_view s) { return fs::path(std::string(s)); }

std::string to_utf8(const fs::path& p) { return p.native(); }

bool is_absolute_normal(const fs::path& p) {
    std::string_view s = p.native();
    if (s.empty() || s[0] != '/') return false;
    if (s.size() == 1) return true;
    if (s.back() == '/') return false;
    // Every part between slashes: not empty, not ".", not "..".
    for (size_t start = 1; start <= s.size();) {
        size_t end = s.find('/', start);
        if (end == std::string_view::npos) end = s.size();
        auto part = s.substr(start, end - start);
        if (part.empty() || part == "." || part == "..") return false;
        start = end + 1;
    }
    return true;
}

// Through read_regular_file: no iostream buffers, and never opens a FIFO.
std::optional<std::string> read_file(const fs::path& p, size_t max_bytes) {
    auto r = read_regular_file(p, max_bytes);
    if (r.status != ReadStatus::ok) return std::nullopt;
    return std::move(r.text);
}

ReadResult read_regular_file(const fs::path& p, size_t max_bytes) {
    ReadResult r;
    // stat first so that a FIFO or a device is never opened; fstat again after
    // opening (O_NONBLOCK: a FIFO swapped in meanwhile cannot block us).
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
        r.status = status_of(errno);
        r.detail = std::strerror(errno);
        return r;
    }
    if (!S_ISREG(st.st_mode)) {
        r.status = ReadStatus::not_a_file;
        return r;
    }
    Fd f(::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (f.fd < 0) {
        r.status = status_of(errno);
        r.detail = std::strerror(errno);
        return r;
    }
    if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        r.status = ReadStatus::not_a_file;
        return r;
    }
    if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
        r.status = ReadStatus::too_large;
        return r;
    }
    // Straight into the string, sized by fstat plus one byte to see the end
    // in the same read; it grows for files that report no size (/proc).
    size_t have = 0;
    r.text.resize(static_cast<size_t>(st.st_size) + 1);
    for (;;) {
        if (have == r.text.size()) r.text.resize(std::min(have * 2, max_bytes + 1));
        auto n = ::read(f.fd, r.text.data() + have, r.text.size() - have);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            r.status = ReadStatus::error;
            r.detail = std::strerror(errno);
            r.text.clear();
            return r;
        }
        if (n == 0) break;
        const auto asked = r.text.size() - have;
        have += static_cast<size_t>(n);
        if (have > max_bytes) {  // grew while we read
            r.status = ReadStatus::too_large;
            r.text.clear();
            return r;
        }
        // All fstat said was there, in a read that asked for more: the end,
        // without one more read to see 0 (not for /proc, whose size is 0).
        if (st.st_size > 0 && have == static_cast<size_t>(st.st_size) && static_cast<size_t>(n) < asked) break;
    }
    r.text.resize(have);
    return r;
}

void write_file_atomic(const fs::path& p, std::string_view content, Durability how) {
    std::error_code ec;
    auto dir = p.parent_path();
    if (!dir.empty()) fs::create_directories(dir, ec);
    if (ec) throw Error("cannot create folder '" + to_utf8(dir) + "': " + ec.message());
    std::random_device rd;
    fs::path tmp;
    auto fail = [&](const std::string& what, int err) {
        ::unlink(tmp.c_str());
        if (err == EACCES || err == EPERM || err == EROFS)
            throw Error("cannot write '" + to_utf8(p) + "': " + std::strerror(err),
                        "check that you own '" + to_utf8(dir) + "'");
        throw Error("cannot " + what + " '" + to_utf8(p) + "': " + std::strerror(err) +
                    (err == ENOSPC || err == EDQUOT ? " (disk full?)" : ""));
    };
    {
        // A name of our own beside the target (writers at once never share one).
        Fd f(-1);
        for (int attempt = 0; attempt < 100 && f.fd < 0; ++attempt) {
            tmp = p;
            tmp += ".tmp" + std::to_string(rd() % 1000000);
            f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (f.fd < 0 && errno != EEXIST) break;
        }
        if (f.fd < 0) {
            int err = errno;
            throw Error("cannot write '" + to_utf8(p) + "': " + std::strerror(err),
                        "check that you own '" + to_utf8(dir.empty() ? fs::path(".") : dir) + "'");
        }
        size_t done = 0;
        while (done < content.size()) {
            auto n = ::write(f.fd, content.data() + done, content.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) fail("write", errno);
            done += static_cast<size_t>(n);
        }
        // The data reaches the disk before the name does: after a crash the
        // file is the old one or the whole new one, never an empty one.
        if (how == Durability::durable && ::fsync(f.fd) != 0) fail("write", errno);
        int fd = f.fd;
        f.fd = -1;
        if (::close(fd) != 0) fail("write", errno);
    }
    if (::rename(tmp.c_str(), p.c_str()) != 0) fail("replace", errno);
    if (how == Durability::cache) return;
    // And the rename itself is made durable by syncing the folder.
    Fd d(::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.fd >= 0) ::fsync(d.fd);  // some file systems cannot sync a folder; the rename is done anyway
}

}  // namespace cudaenv::fsx
