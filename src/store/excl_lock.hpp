#pragma once
// A lock that holds across the nodes of a network filesystem: a lock file
// created with O_EXCL (exclusive create is atomic on the NFS server since
// NFSv3, and on SMB), holding who owns it:
//   cudaenv-lock 1 / host=node07 / pid=4242 / token=<random> / since=<unix time>
// flock()/fcntl() locks are not enough for a store shared between nodes: on
// NFS they depend on the lock manager (NLM for v3, lease state for v4) and
// many cluster mounts disable it (`nolock`, `local_lock=all`) or make locks
// node-local (Lustre `localflock`, some GPFS/BeeGFS set-ups), so two nodes
// would both "hold" the lock. docs/cluster.md has the details.
//
// A holder that dies leaves its file behind; the next one recovers it:
// - same host: the pid no longer exists;
// - another host (its pid means nothing here): the file's mtime is older than
//   the stale age (CUDAENV_LOCK_STALE_SECONDS, default 600). The holder
//   touches its file every stale_age/4 s from a thread, so a long install
//   never looks stale, and a same-host pid reused by another process is
//   caught by the same age test.
// Recovery renames the stale file to a private name (only one of several
// waiters can win that rename), checks that what it took is the stale file it
// judged (by token), deletes it and competes for the lock again.
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace cudaenv {

struct LockOwner {
    std::string host;
    long pid = 0;
    std::string token;
    long long since = 0;  // unix seconds
};

// Reads a lock file's owner; nullopt when it is absent or not (yet) complete.
std::optional<LockOwner> read_lock_owner(const std::filesystem::path& file);

class ExclusiveLock {
public:
    // Takes the lock, waiting up to `wait` (nullopt: as long as it takes) and
    // telling stderr once who holds it (unless quiet). Throws Error when the
    // wait ends or the file cannot be created (e.g. no write access).
    ExclusiveLock(std::filesystem::path file, std::optional<std::chrono::seconds> wait, bool quiet);
    ~ExclusiveLock();
    ExclusiveLock(const ExclusiveLock&) = delete;
    ExclusiveLock& operator=(const ExclusiveLock&) = delete;

    const std::filesystem::path& file() const { return file_; }

private:
    struct Heartbeat;
    std::filesystem::path file_;
    std::string token_;
    std::unique_ptr<Heartbeat> heartbeat_;
};

// Seconds after which another host's lock counts as abandoned.
std::chrono::seconds lock_stale_age();

}  // namespace cudaenv
