#pragma once
// What a pair needs from the machine it runs on, as the compatibility table
// (src/data/compat.toml) knows it: the oldest driver and the range of GPU
// architectures. The one question `cudaenv lock` asks of that table, so a
// richer table changes this file and no lock code.
#include <optional>
#include <string>

#include "core/version.hpp"

namespace cudaenv::check {

struct PairRequirements {
    // The oldest driver per OS ("" where the table does not say). A release
    // with a row of its own gives its GA driver; else the CUDA major's floor
    // through minor-version compatibility.
    std::string driver_linux, driver_windows;
    // Compute capabilities: the newer of CUDA's and cuDNN's lowest, and
    // cuDNN's highest where its support matrix gives one (empty = not known).
    Version cc_min, cc_max;
};

// `cudnn` is nullopt for a pair without cuDNN.
PairRequirements pair_requirements(const Version& cuda, const std::optional<Version>& cudnn);

}  // namespace cudaenv::check
