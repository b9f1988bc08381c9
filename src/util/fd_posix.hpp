#pragma once
// A file descriptor closed when it goes out of scope (POSIX files of util/ only).
#include <unistd.h>

namespace cudaenv::fsx {

struct Fd {
    int fd = -1;
    explicit Fd(int f) : fd(f) {}
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
};

}  // namespace cudaenv::fsx
