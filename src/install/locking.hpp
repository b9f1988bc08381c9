#pragma once
// `cudaenv lock`: a project's spec resolved into a LockFile (core/lockfile),
// on the mirror alone (nothing needs to be installed, as `uv lock`), or for
// a spec that names adopted folders, from what is on disk.
#include <optional>
#include <string>
#include <vector>

#include "core/lockfile.hpp"
#include "core/spec.hpp"
#include "store/store.hpp"
#include "install/plan.hpp"

namespace cudaenv::install {

// The platforms of --platform "linux-x86_64,windows-x86_64", sorted; "" =
// this machine's. Throws UsageError naming a platform NVIDIA does not build
// for, or an empty name ("linux-x86_64,").
std::vector<std::string> parse_platforms(const std::string& text);

// What a lock is written for when --platform does not say: the platforms of
// the lock it replaces (`old`; a teammate's `lock` must not drop Windows),
// and this machine's.
std::vector<std::string> kept_platforms(const std::optional<LockFile>& old);

// The lock already at `file`, when there is one that reads; a damaged one is
// reported as a warning on stderr and treated as none.
std::optional<LockFile> existing_lock(const fs::path& file);

// The lock of the newest pair on the mirror that `spec` matches, with every
// archive of each platform (the default component set).
LockFile lock_from_mirror(Catalog& catalog, const Spec& spec, const std::vector<std::string>& platforms,
                          const RunsHere& runs_here = {});

// True when `spec` names folders adopted on this machine (an origin other
// than `store`), which a mirror cannot reproduce.
bool names_adopted(const Spec& spec);

// The lock of an adopted pair: its versions and the size and sha256 of its
// libraries as they are on disk; marked as not reproducible by download.
LockFile lock_adopted(Store& store, const Spec& spec);

// Checks the pair an adopted lock names against the disk; throws Error
// naming the first library that differs, or saying the pair is not here.
void verify_adopted(Store& store, const LockFile& lock, const std::string& lock_name);

// Says on stderr that the lock named `location` as the mirror to download
// from, when that is an http(s) URL: a cloned lock chose it, not the user
// (a configured mirror always wins over it).
void announce_lock_mirror(const std::string& location, const std::string& lock_name);

// Writes the lock unless the file holds the same text; true when written.
bool write_lock(const LockFile& lock, const fs::path& file);

}  // namespace cudaenv::install
