#pragma once
// What an exported file sets for one pair: the activation's intent
// (core/env_diff.hpp), planned through the one activation path `cudaenv env`
// takes (core/activation), against the caller's environment. This is the one
// place export asks for it.
#include <optional>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "core/pairs.hpp"
#include "core/pathlist.hpp"
#include "store/store.hpp"

namespace cudaenv::exporting {

struct PairVars {
    Pair pair;
    std::string spec;        // the pair's full spec, "11.8.89+8.9.7"
    std::string list_spec;   // the spec `list` shows, which tells two installs of one version apart
    std::string cuda_root;   // CUDA_PATH
    std::string cuda_version, cudnn_version;  // cudnn_version empty: none
    std::optional<std::string> last_check;    // "pass: ..." from checks.toml
    // What activating the pair does, as `cudaenv env SPEC` plans it here.
    // Formats draw its pair intent (is_pair_intent: set, unset, prepend); a
    // format that writes a whole environment draws each such edit's value in
    // the caller's environment (PATH in full, as `env --json` gives it).
    EnvDiff diff;

    // The pair's intent, in order: what every format draws.
    std::vector<const EnvEdit*> intent() const;
    // The value of a variable the pair sets.
    std::optional<std::string> get(const std::string& name) const;
};

// The pairs named by `specs` (every pair when `all`); throws a clear error
// for a spec that matches nothing. Duplicates are dropped.
std::vector<Pair> select_pairs(Store& store, const std::vector<std::string>& specs, bool all);

// A fresh container's environment: OCI's default PATH (what Podman, Docker and
// containerd give a process whose image sets none) and nothing else.
EnvReader container_environment();

// What activating `pair` does, planned in the environment `env` reads.
PairVars pair_vars(Store& store, const Pair& pair, const EnvReader& env, PathStyle style);

}  // namespace cudaenv::exporting
