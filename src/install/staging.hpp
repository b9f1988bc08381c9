#pragma once
// The store's staging area (<store>/tmp) and its lock: what install and
// uninstall share. Kept apart from the installer so `cudaenv uninstall`
// needs no download or archive library.
#include <filesystem>
#include <memory>
#include <string>

#include "core/store.hpp"

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
// Renames `staging` to `target`, setting an existing target aside first and
// deleting it afterwards.
void commit(Store& store, const fs::path& staging, const fs::path& target);

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
