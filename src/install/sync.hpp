#pragma once
// `cudaenv sync` (and `install --locked`): the store made to hold exactly the
// pair of the project's cudaenv.lock (what is missing installed from the
// locked archives, their sizes and hashes checked, the pair pinned) and the
// project made to use it. A sync with nothing to do reads two small files,
// lists the store and stops.
#include <filesystem>
#include <iosfwd>
#include <string>

#include "store/store.hpp"
#include "install/sync_plan.hpp"

namespace cudaenv::install {

// Returns true when something was installed (the caller refreshes the shims).
bool sync_project(Store& store, const std::filesystem::path& cwd, const SyncOptions& opts, std::ostream& out);

}  // namespace cudaenv::install
