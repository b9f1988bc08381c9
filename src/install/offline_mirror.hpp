#pragma once
// `cudaenv mirror create|verify`: an offline mirror in NVIDIA's layout
// (docs/install.md, "Offline mirrors"), holding the manifests and exactly
// the archives some specs or a lock need, copied from NVIDIA or another
// mirror; and the check of every archive in one against its manifest.
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "core/lockfile.hpp"
#include "core/spec.hpp"
#include "install/plan.hpp"

namespace cudaenv::install {

namespace fs = std::filesystem;

struct MirrorCreateOptions {
    std::vector<Spec> specs;             // resolved on `source` as `cudaenv lock` does
    fs::path lock_file;                  // or the archives of a cudaenv.lock
    std::vector<std::string> platforms;  // empty: this machine's (a lock: the lock's own)
    std::string source;                  // where to copy from ("" with a lock: the lock's mirror)
    bool quiet = false;
    int connections = 4;
    // The machine judged for (--gpu, --driver; --force): specs resolve to
    // releases that run there, a lock's pair must run there ("" when it does).
    RunsHere runs_here;
    std::function<std::string(const LockFile&)> lock_runs_here;
};

// Downloads go to <file>.part and resume; every archive's size and sha256 is
// checked before it takes its name, and one already there is checked, not
// fetched again. Throws Error on the first failure (what is complete stays).
void create_mirror(const fs::path& dir, const MirrorCreateOptions& opts, std::ostream& out);

// Checks every archive in `dir` that a manifest there lists against its size
// and sha256 (listed archives that are absent are counted, not errors).
// Throws Error naming the first bad one after reporting all of them.
void verify_mirror(const fs::path& dir, bool quiet, std::ostream& out);

}  // namespace cudaenv::install
