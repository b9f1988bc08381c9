#pragma once
// The store's policy for `cudaenv uninstall`: what a spec takes away, when
// that would pull the active pair out from under the user, and what is
// forgotten with it (adopted entries, pins). Deleting a managed folder is the
// installer's (it knows the store's staging area); it is passed in.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/spec.hpp"
#include "store/store.hpp"

namespace cudaenv {

struct Removal {
    std::optional<ToolkitRecord> toolkit;
    std::optional<CudnnRecord> cudnn;
};

// What uninstalling `spec` takes away: the toolkit, and the cuDNN when the
// spec names a version (12.4+9.1); with `cudnn_only` the pair's cuDNN alone.
// Throws for `system`, for a spec nothing matches and, with `cudnn_only`, for
// a pair without cuDNN.
Removal plan_removal(const Spec& spec, Store& store, bool cudnn_only);

// The active pair's full spec when `removal` takes its toolkit or cuDNN.
std::optional<std::string> removes_active(const Removal& removal, const Spec& active, Store& store);

// Carries `removal` out: managed folders go through `remove_folder`, adopted
// ones are forgotten (their folders are left as they are); pins of the
// toolkit go, and pins naming the cuDNN go when no build of that version
// remains. Saves config.toml, so call it under store.lock(). Returns one line
// per item for the user.
std::vector<std::string> apply_removal(const Removal& removal, Store& store,
                                       const std::function<void(const std::filesystem::path&)>& remove_folder);

}  // namespace cudaenv
