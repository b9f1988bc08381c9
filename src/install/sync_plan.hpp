#pragma once
// What `cudaenv sync` decides before anything is fetched, with no download,
// archive or hash library: where the project and its lock are, whether the
// lock matches, what is missing from the store, whether the pair is pinned
// and picked by the project. The cudaenv program itself answers a sync with
// nothing to do from these (commands/install_forward.cpp), so it starts
// cudaenv-install (and its dozens of shared libraries) only when there is work.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "core/lockfile.hpp"
#include "core/pairs.hpp"
#include "core/resolve.hpp"
#include "store/store.hpp"
#include "install/plan.hpp"

namespace cudaenv::install {

struct SyncOptions {
    // plain: lock first when the lock is missing or out of date; locked:
    // fail then (`uv sync --locked`); frozen: use the lock as it is, without
    // reading .cudaenv.
    enum class Mode { plain, locked, frozen };
    Mode mode = Mode::plain;
    bool quiet = false;
    bool dry_run = false;
    int connections = 4;
    std::string mirror;  // --mirror, CUDAENV_MIRROR or config.toml; "" = the lock's own
    // --store-only (with --frozen or --locked): the store is changed, the
    // project is not (no .cudaenv written): CI that must leave its checkout clean.
    bool store_only = false;
    // The machine judged for (--gpu, --driver; --force), asked only when there
    // is something to install: `runs_here` for a lock made again, `lock_runs_here`
    // for the lock's pair and its [requires] ("" when it runs, else why not).
    RunsHere runs_here;
    std::function<std::string(const LockFile&)> lock_runs_here;
};

struct SyncProject {
    std::optional<VersionFile> version_file;  // .cudaenv or .tool-versions (not read by --frozen)
    std::filesystem::path lock_path;          // beside it (--frozen: the nearest cudaenv.lock)
};

// Throws Error with a hint when there is no version file (no lock for --frozen).
SyncProject find_sync_project(const std::filesystem::path& cwd, SyncOptions::Mode mode);

// True when the version file holds the spec the lock was made for, or its exact pair.
bool lock_matches(const LockFile& lock, const Spec& spec);

// What is missing from the store for `lock` on `platform` (sizes and hashes
// from the lock; folders already there are kept).
Plan plan_lock(Store& store, const LockFile& lock, const std::string& platform, const std::string& lock_name);

// Whether config.toml pins the plan's pair already.
bool is_pinned(Store& store, const Plan& plan);

// The pair `spec` picks in this store, or nullopt when it picks none.
std::optional<Pair> picked_pair(const Spec& spec, Store& store);

// True, with the "in sync" line written to `out`, when a sync would change
// nothing: the lock matches and has this platform, the store holds its pair,
// the pin is there and the project picks the pair (not asked with
// `store_only`). False for anything else (including what would be an error:
// the full sync reports it).
bool sync_has_nothing_to_do(Store& store, const std::filesystem::path& cwd, SyncOptions::Mode mode, std::ostream& out,
                            bool store_only = false);

// The pair the project's cudaenv.lock names, read as `sync` in `mode` finds
// and reads it (for `sync --print-pair`, after the sync).
std::string locked_pair(const std::filesystem::path& cwd, SyncOptions::Mode mode);

}  // namespace cudaenv::install
