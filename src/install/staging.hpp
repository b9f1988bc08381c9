#pragma once
// The store's staging area (<store>/tmp) and its lock: what install and
// uninstall share. Kept apart from the installer so `cudaenv uninstall`
// needs no download or archive library.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace cudaenv::platform {
class FileLock;
}

namespace cudaenv::install {

namespace fs = std::filesystem;

// Holds the store's install lock (waiting for another install to finish)
// and, once held, cleans what killed installs left in tmp/.
class StoreLock {
public:
    StoreLock(Store& store, bool quiet);
    ~StoreLock();

private:
    std::unique_ptr<platform::FileLock> lock_;
};

// Leftovers of interrupted runs: staging folders are deleted; a folder set
// aside while replacing an install is put back when its replacement never
// arrived. Call with the lock held.
void clean_store_tmp(Store& store);

// Moves `target` (inside the store) into tmp/, then deletes it.
void remove_installed(Store& store, const fs::path& target);

// A tmp/ entry name for `target` ("stage", "old" or "del").
fs::path tmp_entry(Store& store, const std::string& kind, const fs::path& target);
// Deletes a tree, logging (not throwing) on failure.
void remove_tree(const fs::path& p);
// Copies a tree with hard links where the file system allows, else copies.
void copy_tree_linked(const fs::path& from, const fs::path& to);
// A fresh staging folder for `target`.
fs::path make_staging(Store& store, const fs::path& target);
// Moves everything in `from` into `to`, a later file replacing an earlier
// one, and removes `from`. Throws (naming `archive`) where an entry would go
// through a symlink or replace a folder with a file: archives unpacked apart
// are merged into one toolkit without ever writing outside it.
void merge_tree(const fs::path& from, const fs::path& to, const std::string& archive);

// The platform an installed folder was unpacked for, in a file of its own
// (.cudaenv-platform), written into the staging folder before it moves into
// place: a store restored from another machine's cache (a CI runner of
// another architecture) must not count as installed here (`sync` compares).
void record_platform(const fs::path& dir, const std::string& platform);
// "" for a folder installed before cudaenv recorded it (taken as this machine's).
std::string recorded_platform(const fs::path& dir);

// Moves staged folders into place as one change. A journal in tmp/ lists
// them before the first rename, so a run killed half-way is rolled back by
// the next one (clean_store_tmp) and an error rolls back at once: the store
// ends with all of them or none.
class Transaction {
public:
    explicit Transaction(Store& store) : store_(store) {}
    void add(const fs::path& staging, const fs::path& target);
    void commit();

private:
    struct Move {
        fs::path staging, target, old;  // old: where an existing target is set aside ("" = none)
    };
    Store& store_;
    std::vector<Move> moves_;
};

// Deletes the staging folder unless the install reached commit().
struct Staging {
    fs::path dir;
    Staging() = default;
    explicit Staging(fs::path d) : dir(std::move(d)) {}
    Staging(const Staging&) = delete;
    Staging& operator=(const Staging&) = delete;
    ~Staging();
};

}  // namespace cudaenv::install
