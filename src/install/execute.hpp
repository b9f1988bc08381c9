#pragma once
// Carrying out a Plan (plan.hpp), all or nothing: every archive is fetched
// (downloads in parallel, resuming .part files) and unpacked into a staging
// folder of its own as soon as it is complete, while others still download;
// the size and sha256 are checked in the same pass; toolkits are merged and
// validated; then every folder moves into place in one transaction and the
// pair is pinned. Any failure before that leaves the store as it was.
#include <iosfwd>

#include "store/store.hpp"
#include "install/plan.hpp"

namespace cudaenv::install {

struct ExecOptions {
    bool quiet = false;   // no progress display
    int connections = 4;  // downloads at once
};

// Call with the store's install lock held (StoreLock), the plan made under it.
// `catalog` gives the mirror for archives that are not local files.
void execute_plan(Store& store, const Plan& plan, Catalog& catalog, const ExecOptions& opts, std::ostream& out);

}  // namespace cudaenv::install
