// util/user_file.hpp on POSIX: lstat/realpath to see what is at a path,
// O_TMPFILE (else a named temporary file) renamed over a regular file,
// fchmod/fchown to keep its mode and owner, flock on the folder.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <random>

#include "util/error.hpp"
#include "util/fd_posix.hpp"
#include "util/fs.hpp"
#include "util/user_file.hpp"

namespace cudaenv::fsx {

namespace {

constexpr std::string_view tmp_prefix = ".cudaenv-tmp.";

[[noreturn]] void fail(const std::string& what, const fs::path& p, int err) {
    throw Error("cannot " + what + " '" + to_utf8(p) + "': " + std::strerror(err) +
                    (err == ENOSPC || err == EDQUOT ? " (disk full?)" : ""),
                err == EACCES || err == EPERM || err == EROFS ? "check its permissions and its folder's" : "");
}

void write_all(int fd, std::string_view content, const fs::path& p) {
    for (size_t done = 0; done < content.size();) {
        auto n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail("write", p, errno);
        done += static_cast<size_t>(n);
    }
}

// Temporary files of writers that were killed before their rename: the
// process named in the file's name is gone.
void remove_stale_temps(const fs::path& dir) {
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (auto* e = ::readdir(d)) {
        std::string_view name = e->d_name;
        if (!name.starts_with(tmp_prefix)) continue;
        auto rest = name.substr(tmp_prefix.size());
        char* end = nullptr;
        long pid = std::strtol(std::string(rest.substr(0, rest.find('.'))).c_str(), &end, 10);
        if (pid <= 0 || (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH)) {
            struct stat st {};
            auto path = dir / std::string(name);
            if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) ::unlink(path.c_str());
        }
    }
    ::closedir(d);
}

// A temporary file in `dir`: unnamed (O_TMPFILE) where the file system has
// it, so a writer killed now leaves nothing; else named for its process.
int open_temp(const fs::path& dir, const fs::path& target, fs::path& named, mode_t mode, bool unnamed) {
#ifdef O_TMPFILE
    if (unnamed) {
        int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
        if (fd >= 0) return fd;
    }
#endif
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
        named = dir / (std::string(tmp_prefix) + std::to_string(::getpid()) + "." + std::to_string(rd() % 1000000) +
                       "." + to_utf8(target.filename()));
        int f = ::open(named.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (f >= 0 || errno != EEXIST) return f;
    }
    errno = EEXIST;
    return -1;
}

// Gives the unnamed file `fd` a temporary name in `dir` (to be renamed over the target).
bool name_temp(int fd, const fs::path& dir, const fs::path& target, fs::path& named) {
    std::random_device rd;
    const auto proc = "/proc/self/fd/" + std::to_string(fd);
    for (int attempt = 0; attempt < 100; ++attempt) {
        named = dir / (std::string(tmp_prefix) + std::to_string(::getpid()) + "." + std::to_string(rd() % 1000000) +
                       "." + to_utf8(target.filename()));
        if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
        if (errno != EEXIST) return false;
    }
    return false;
}

void write_in_place_impl(const fs::path& path, std::string_view content, bool truncate) {
    // No O_CREAT: what is written in place is there already (a device, a FIFO, a file).
    Fd f(::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (truncate ? O_TRUNC : 0)));
    if (f.fd < 0) fail("write", path, errno);
    write_all(f.fd, content, path);
    if (truncate && ::fsync(f.fd) != 0 && errno != EINVAL) fail("write", path, errno);
}

void replace_through_temp(const fs::path& path, std::string_view content, const Target* like, bool unnamed) {
    const auto dir = folder_of(path);
    remove_stale_temps(dir);
    struct stat old {};
    const bool keep = like && ::stat(path.c_str(), &old) == 0;
    fs::path named;
    Fd f(open_temp(dir, path, named, keep ? (old.st_mode & 07777) : 0666, unnamed));
    if (f.fd < 0) {
        int err = errno;
        // A file we may write in a folder we may not: in place is all that is left.
        if (keep && (err == EACCES || err == EPERM) && ::access(path.c_str(), W_OK) == 0)
            return write_in_place_impl(path, content, true);
        fail("write", path, err);
    }
    auto drop = [&](const std::string& what, int err) {
        if (!named.empty()) ::unlink(named.c_str());
        fail(what, path, err);
    };
    try {
        write_all(f.fd, content, path);
    } catch (...) {
        if (!named.empty()) ::unlink(named.c_str());
        throw;
    }
    if (keep) {
        // Owner first (where permitted: else the file becomes ours): chown
        // clears set-id bits, which the mode then puts back.
        if ((old.st_uid != ::geteuid() || old.st_gid != ::getegid()) && ::fchown(f.fd, old.st_uid, old.st_gid) != 0) {
        }
        ::fchmod(f.fd, old.st_mode & 07777);
    }
    if (::fsync(f.fd) != 0) drop("write", errno);
    // No /proc to name the unnamed file by: write it again under a name.
    if (named.empty() && !name_temp(f.fd, dir, path, named)) return replace_through_temp(path, content, like, false);
    if (::rename(named.c_str(), path.c_str()) != 0) drop("replace", errno);
    Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.fd >= 0) ::fsync(d.fd);  // the rename itself on disk; some file systems cannot sync a folder
}

}  // namespace

Target inspect_target(const fs::path& p) {
    Target t;
    t.path = p;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
        if (errno == ENOENT) return t;
        t.kind = TargetKind::other;
        t.detail = std::string("unreachable (") + std::strerror(errno) + ")";
        return t;
    }
    if (S_ISLNK(st.st_mode)) {
        t.via_link = true;
        if (::stat(p.c_str(), &st) != 0) {
            if (errno != ENOENT) {
                t.kind = TargetKind::other;
                t.detail = errno == ELOOP ? "a link that loops" : std::string("a link (") + std::strerror(errno) + ")";
                return t;
            }
            // The end of the chain, for the message: follow it by hand.
            fs::path at = p;
            for (int hops = 0; hops < 40; ++hops) {
                std::error_code ec;
                auto to = fs::read_symlink(at, ec);
                if (ec) break;
                at = to.is_absolute() ? to : folder_of(at) / to;
            }
            t.kind = TargetKind::dangling_link;
            t.path = at.lexically_normal();
            return t;
        }
        // A link the kernel resolves itself (/dev/stdout to /proc/self/fd/1
        // to a pipe) has no path at its end: it is opened as it is named.
        char buf[PATH_MAX];
        if (::realpath(p.c_str(), buf)) t.path = buf;
    }
    if (S_ISREG(st.st_mode)) {
        t.kind = TargetKind::file;
        t.links = st.st_nlink;
        t.read_only = !(st.st_mode & S_IWUSR) || ::access(t.path.c_str(), W_OK) != 0;
    } else if (S_ISCHR(st.st_mode)) {
        t.kind = TargetKind::device;
    } else if (S_ISFIFO(st.st_mode)) {
        t.kind = TargetKind::fifo;
    } else if (S_ISDIR(st.st_mode)) {
        t.kind = TargetKind::folder;
    } else {
        t.kind = TargetKind::other;
        t.detail = S_ISSOCK(st.st_mode) ? "a socket" : S_ISBLK(st.st_mode) ? "a block device" : "not a regular file";
    }
    return t;
}

namespace user_file_os {

void write_in_place(const fs::path& path, std::string_view content, bool truncate) {
    write_in_place_impl(path, content, truncate);
}

void replace(const fs::path& path, std::string_view content, const Target* like) {
    replace_through_temp(path, content, like, true);
}

void append(const fs::path& path, std::string_view content, bool create) {
    const int flags = O_APPEND | O_CLOEXEC | O_NOCTTY | (create ? O_CREAT : 0);
    Fd f(::open(path.c_str(), O_RDWR | flags, 0666));
    bool can_read = f.fd >= 0;
    if (!can_read) f.fd = ::open(path.c_str(), O_WRONLY | flags, 0666);  // a write-only file
    if (f.fd < 0) fail("append to", path, errno);
    std::string text;
    struct stat st {};
    char last = '\n';
    // The last line another writer left without its line break gets one, in the same write.
    if (can_read && ::fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        ::pread(f.fd, &last, 1, st.st_size - 1) == 1 && last != '\n') {
        text = "\n";
        text += content;
        content = text;
    }
    // One write: O_APPEND puts it whole at the end, between other writers' lines.
    write_all(f.fd, content, path);
}

bool can_create_in(const fs::path& dir) { return ::access(dir.c_str(), W_OK | X_OK) == 0; }

}  // namespace user_file_os

UserFileLock::UserFileLock(const fs::path& file) {
    auto t = inspect_target(file);
    int fd = ::open(folder_of(t.path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;  // nothing to lock: the write says why
    int rc;
    do rc = ::flock(fd, LOCK_EX);
    while (rc != 0 && errno == EINTR);
    handle_ = fd;  // unlocked (a file system without locks) or locked: closing releases either way
}

UserFileLock::~UserFileLock() {
    if (handle_ >= 0) ::close(static_cast<int>(handle_));
}

}  // namespace cudaenv::fsx
