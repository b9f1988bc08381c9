#pragma once
// Pairs: a toolkit plus at most one cuDNN. Picks the pair a spec names and
// lists every pair the store knows.
#include <optional>
#include <string>
#include <vector>

#include "core/detect.hpp"
#include "core/spec.hpp"
#include "core/store.hpp"

namespace cudaenv {

struct Pair {
    ToolkitRecord toolkit;
    std::optional<CudnnRecord> cudnn;
    // The full spec of this pair: "12.6.3+9.8.0" or "12.6.3+none".
    std::string spec() const;
};

// A pair with its folders read from disk (throws when a folder has gone).
struct DetectedPair {
    Toolkit toolkit;
    std::optional<Cudnn> cudnn;
};

// True when `c` was built for the toolkit's CUDA major.
bool cudnn_fits(const CudnnRecord& c, const ToolkitRecord& t);

// The pair `spec` names (spec must not be system). Throws Error listing
// what is installed when nothing matches.
Pair select_pair(const Spec& spec, Store& store);

// Every toolkit with every cuDNN that fits it (the default one first), or
// with none when no cuDNN fits.
std::vector<Pair> all_pairs(Store& store);
// cuDNNs that fit no known toolkit.
std::vector<CudnnRecord> cudnns_without_toolkit(Store& store);

DetectedPair detect_pair(const Pair& pair);

// "11.8.0 (store), 12.6.3 (/usr/local/cuda-12.6)" for error messages.
std::string installed_summary(Store& store);

}  // namespace cudaenv
