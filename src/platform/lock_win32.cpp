#include "platform/lock.hpp"

#include <windows.h>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

struct FileLock::Impl {
    HANDLE h = INVALID_HANDLE_VALUE;
};

FileLock::FileLock(const std::filesystem::path& file, bool wait, Mode mode) : impl_(std::make_unique<Impl>()) {
    impl_->h = ::CreateFileW(file.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                             OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (impl_->h == INVALID_HANDLE_VALUE)
        throw Error("cannot open lock file '" + fsx::to_utf8(file) + "' (error " + std::to_string(::GetLastError()) +
                        ")",
                    "set CUDAENV_ROOT to a folder you can write");
    OVERLAPPED ov{};
    DWORD flags = (mode == Mode::shared ? 0 : LOCKFILE_EXCLUSIVE_LOCK) | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
    if (::LockFileEx(impl_->h, flags, 0, 1, 0, &ov)) {
        locked_ = true;
    } else if (::GetLastError() != ERROR_LOCK_VIOLATION) {
        DWORD err = ::GetLastError();
        ::CloseHandle(impl_->h);
        impl_->h = INVALID_HANDLE_VALUE;
        throw Error("cannot lock '" + fsx::to_utf8(file) + "' (error " + std::to_string(err) + ")");
    }
}

FileLock::~FileLock() {
    if (impl_ && impl_->h != INVALID_HANDLE_VALUE) ::CloseHandle(impl_->h);  // releases the lock
}

}  // namespace cudaenv::platform
