#pragma once
// A cross-process lock on a file (flock on POSIX, LockFileEx on Windows).
// The OS drops it when the process dies, so a killed install never leaves
// the store locked.
#include <filesystem>
#include <memory>

namespace cudaenv::platform {

class FileLock {
public:
    // shared: any number of holders at once, while nobody holds it exclusive.
    enum class Mode { exclusive, shared };
    // Waits for the lock when `wait`; otherwise returns an unlocked object
    // (locked() == false) when another process holds it. Throws cudaenv::Error
    // when the lock file cannot be opened.
    FileLock(const std::filesystem::path& file, bool wait, Mode mode = Mode::exclusive);
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    bool locked() const { return locked_; }

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    bool locked_ = false;
};

}  // namespace cudaenv::platform
