#pragma once
// Adopting folders that are already on disk: they are recorded in
// config.toml as external, never copied or changed.
#include <filesystem>
#include <string>
#include <vector>

#include "core/detect.hpp"
#include "core/found.hpp"
#include "store/store.hpp"

namespace cudaenv {

// What `dir` holds: a toolkit, cuDNN builds, or both (cuDNN copied into a
// toolkit folder, as the manual Windows procedure does). Empty if neither.
std::vector<Found> inspect_folder(const std::filesystem::path& dir, Store& store);

// Records the not-yet-known items in config.toml (the caller saves).
void adopt(const std::vector<Found>& items, Store& store);

std::string describe(const Found& f);

}  // namespace cudaenv
