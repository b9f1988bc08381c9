#include "platform/lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

struct FileLock::Impl {
    int fd = -1;
};

FileLock::FileLock(const std::filesystem::path& file, bool wait, Mode mode) : impl_(std::make_unique<Impl>()) {
    impl_->fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (impl_->fd < 0)
        throw Error("cannot open lock file '" + fsx::to_utf8(file) + "': " + std::strerror(errno),
                    "set CUDAENV_ROOT to a folder you can write");
    int rc;
    do {
        rc = ::flock(impl_->fd, (mode == Mode::shared ? LOCK_SH : LOCK_EX) | (wait ? 0 : LOCK_NB));
    } while (rc != 0 && errno == EINTR);
    if (rc == 0) {
        locked_ = true;
    } else if (errno != EWOULDBLOCK) {
        int err = errno;
        ::close(impl_->fd);
        impl_->fd = -1;
        throw Error("cannot lock '" + fsx::to_utf8(file) + "': " + std::strerror(err));
    }
}

FileLock::~FileLock() {
    if (impl_ && impl_->fd >= 0) ::close(impl_->fd);  // closing releases the flock
}

}  // namespace cudaenv::platform
