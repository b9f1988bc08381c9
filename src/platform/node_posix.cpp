#include "platform/node.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

std::string host_name() {
    char buf[HOST_NAME_MAX + 1] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || buf[0] == '\0') return "unknown";
    return buf;
}

std::string boot_id() {
    auto text = fsx::read_file("/proc/sys/kernel/random/boot_id", 256);
    if (!text) return {};
    while (!text->empty() && (text->back() == '\n' || text->back() == ' ')) text->pop_back();
    return *text;
}

long current_pid() { return static_cast<long>(::getpid()); }

bool process_alive(long pid) {
    if (pid <= 0) return false;
    // EPERM: it exists but belongs to someone else.
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

bool create_exclusive(const std::filesystem::path& file, const std::string& content) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        if (errno == EEXIST) return false;
        throw Error("cannot create '" + fsx::to_utf8(file) + "': " + std::strerror(errno));
    }
    const char* p = content.data();
    size_t left = content.size();
    while (left > 0) {
        auto n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int err = errno;
            ::close(fd);
            ::unlink(file.c_str());
            throw Error("cannot write '" + fsx::to_utf8(file) + "': " + std::strerror(err));
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    ::fsync(fd);
    ::close(fd);
    return true;
}

std::filesystem::path system_store_root() {
    if (auto r = get_env("CUDAENV_SYSTEM_ROOT"); r && !r->empty()) return fsx::absolute_normal(fsx::from_utf8(*r));
    return "/opt/cudaenv";
}

}  // namespace cudaenv::platform
