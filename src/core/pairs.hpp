#pragma once
// Pairs: a toolkit plus at most one cuDNN. Picks the pair a spec names and
// lists every pair the store knows.
#include <optional>
#include <string>
#include <vector>

#include "core/detect.hpp"
#include "core/spec.hpp"
#include "core/inventory.hpp"

namespace cudaenv {

struct Pair {
    ToolkitRecord toolkit;
    std::optional<CudnnRecord> cudnn;
    // The full spec of this pair: "12.6.3+9.8.0" or "12.6.3+none" (two
    // installs of one version share it: unique_specs() tells them apart).
    std::string spec() const;
    // What identifies the pair across runs whatever its spec: its folders.
    std::string id() const;
    bool same_as(const Pair& o) const { return id() == o.id(); }
};

// The origin names of an installed folder, the most general first: "store"
// (installed by cudaenv), "pip" (a wheel in site-packages/nvidia) or
// "system" (in /usr), then the folder's own name ("cuda-12.6", "cu13"), then
// its parent's and its own ("local-cuda"), each lowercased with anything
// outside [a-z0-9._-] made '-'. A spec's "@origin" matches any of them.
std::vector<std::string> origin_names(const fs::path& folder, bool managed);

// The spec `list` shows for each pair, in order: the shortest that selects
// exactly that pair among `pairs` with the store's pins (the full versions,
// then an origin on the toolkit, the cuDNN, or both).
std::vector<std::string> unique_specs(const std::vector<Pair>& pairs, Inventory& store);
// The same from the store's lists already read (store.toolkits(), store.cudnns()).
std::vector<std::string> unique_specs(const std::vector<Pair>& pairs, const std::vector<ToolkitRecord>& toolkits,
                                      const std::vector<CudnnRecord>& cudnns);
// The one of `pair` (its full spec when the store does not list it): what
// CUDAENV_VERSION holds after `use`, so a shim or `current` finds that very pair.
std::string unique_spec(const Pair& pair, Inventory& store);
std::string unique_spec(const Pair& pair, const std::vector<ToolkitRecord>& toolkits,
                        const std::vector<CudnnRecord>& cudnns);

// Every toolkit that `spec`'s CUDA part matches, in the order selection takes them.
std::vector<ToolkitRecord> matching_toolkits(const Spec& spec, Inventory& store);
std::vector<ToolkitRecord> matching_toolkits(const Spec& spec, const std::vector<ToolkitRecord>& toolkits);

// When `spec` matches more than one CUDA install, the lines `use` says: which
// one `chosen` is and why, then the exact spec of each other (the first few,
// then how many more); empty otherwise.
// `toolkits`: inventory.toolkits().
std::vector<std::string> choice_explanation(const Spec& spec, const Pair& chosen, Inventory& store,
                                            const std::vector<ToolkitRecord>& toolkits);

// A pair with its folders read from disk (throws when a folder has gone).
struct DetectedPair {
    Toolkit toolkit;
    std::optional<Cudnn> cudnn;
};

// True when `c` was built for the toolkit's CUDA major.
bool cudnn_fits(const CudnnRecord& c, const ToolkitRecord& t);

// The pair `spec` names (spec must not be system). Throws Error listing
// what is installed when nothing matches.
Pair select_pair(const Spec& spec, Inventory& store);
// The same from the store's lists already read (store.toolkits(), store.cudnns()).
Pair select_pair(const Spec& spec, Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                 const std::vector<CudnnRecord>& cudnns);

// Each toolkit with its default cuDNN (its pin, else the newest that fits;
// none when none fits): what `list` shows and a spec without a cuDNN picks.
// Costs the toolkits plus the cuDNNs, never their product.
// `toolkits`, `cudnns`: the store's lists (store.toolkits(), store.cudnns()).
std::vector<Pair> default_pairs(Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                                const std::vector<CudnnRecord>& cudnns);
// Every toolkit with every cuDNN that fits it (the default one first), or
// with none when no cuDNN fits (`list --all`, `check --all`, `export --all`).
std::vector<Pair> all_pairs(Inventory& store);
std::vector<Pair> all_pairs(Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                            const std::vector<CudnnRecord>& cudnns);
// cuDNNs that fit no known toolkit.
std::vector<CudnnRecord> cudnns_without_toolkit(Inventory& store);
std::vector<CudnnRecord> cudnns_without_toolkit(const std::vector<ToolkitRecord>& toolkits,
                                                const std::vector<CudnnRecord>& cudnns);

// Reads the pair's folders from disk, or through `cache` (the store's
// detection cache, store/detect_cache.hpp, answers while its key holds).
DetectedPair detect_pair(const Pair& pair);
DetectedPair detect_pair(const Pair& pair, FolderDetector& cache);

// "CUDA 12.6.3, CUDA 11.8.0, cuDNN 9.8.0 (CUDA 12)" for error messages: the
// first few of each kind, then how many more.
std::string installed_summary(Inventory& store);

}  // namespace cudaenv
