#pragma once
// Which releases `install` may take on this machine: a CUDA or cuDNN release
// whose libraries carry no code these GPUs run (by the compatibility table:
// nothing is installed yet) is left out, so `install 12.6+9` on a GTX 1080
// (sm_61) takes cuDNN 9.10, not 9.11, which dropped every GPU below 7.5.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "gpu/machine.hpp"
#include "gpu/table.hpp"

namespace cudaenv::gpu {

// Whether one release runs on every GPU of `m`: the worst verdict, with its
// reason ("no_code" when the table has no row or no GPU is known).
struct ReleaseVerdict {
    Runs runs = Runs::no_code;
    std::string why;  // "GPU 0 (NVIDIA GeForce GTX 1080, sm_61): cuDNN 9.11 supports ..."
};
// `product`: "cuda" or "cudnn" (as the mirror names them).
ReleaseVerdict release_runs(const std::string& product, const Version& release, const Machine& m);

// The newest of `releases` (newest first) matching `wanted` that runs here
// (natively or through JIT); nullopt when none does.
std::optional<Version> newest_that_runs(const std::string& product, const std::vector<Version>& releases,
                                        const Version& wanted, const Machine& m);

// What install does with a product's releases (newest first): those matching
// `wanted` that cannot run here are removed, and `err` says which and why.
// When none that matches can run, throws Error naming the releases that would,
// before anything is downloaded. `force`: nothing is removed, only said.
void keep_releases_that_run(const std::string& product, std::vector<Version>& releases, const Version& wanted,
                            const Machine& m, bool force, std::ostream& err);

}  // namespace cudaenv::gpu
