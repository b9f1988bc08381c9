#pragma once
// What the compatibility tables (src/data/gpu_archs.toml, compat.toml) say
// about the GPUs a CUDA or cuDNN release runs on, before anything is
// installed: install and `--for` decide with it, and a pair whose libraries
// carry no readable GPU code is judged by it.
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"
#include "gpu/fatbin.hpp"
#include "gpu/verdict.hpp"

namespace cudaenv::gpu {

struct TableVerdict {
    Runs runs = Runs::no_code;  // no_code: the table has no row for it
    std::string why;            // "CUDA 13.0's libraries carry SASS for 7.5-12.1"
    std::string source;         // the row's source
    bool unconfirmed = false;
};
TableVerdict table_cuda(const Version& cuda, const Arch& gpu);
// `cuda`: the CUDA release the cuDNN is used with (its row may depend on it);
// nullopt: the widest of its builds.
TableVerdict table_cudnn(const Version& cudnn, const Arch& gpu, const std::optional<Version>& cuda = std::nullopt);
// A hash of the tables built into this cudaenv (compat, gpu_archs, drivers): it ends the key under which
// the code cache keeps a verdict of theirs (gpu/pair_code.cpp), so `list`
// parses no TOML, and a cudaenv with other tables asks them again.
std::string tables_hash();

// The driver and GPU architectures a pair needs (a lock file records them;
// install decides with them): the minimum driver per OS, SASS for compute
// capability cc_lo..cc_hi, PTX for `ptx`; with the sources of the rows.
struct PairNeeds {
    std::string min_driver_linux, min_driver_windows;
    Version cc_lo, cc_hi, ptx;
    const std::string& min_driver_on(bool windows) const { return windows ? min_driver_windows : min_driver_linux; }
    std::vector<std::string> sources;
};
PairNeeds pair_needs(const Version& cuda, const std::optional<Version>& cudnn);

}  // namespace cudaenv::gpu
