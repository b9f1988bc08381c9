#pragma once
// The variables an exported file sets for one pair, taken from the same
// activation plan `cudaenv env` prints (core/activation), so every format
// follows whatever that plan holds. This is the one place export reads it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/activation.hpp"
#include "core/pairs.hpp"
#include "core/pathlist.hpp"
#include "core/store.hpp"

namespace cudaenv::exporting {

struct PairVars {
    Pair pair;
    std::string spec;        // the pair's full spec, "11.8.89+8.9.7"
    std::string cuda_root;   // CUDA_PATH
    std::string cuda_version, cudnn_version;  // cudnn_version empty: none
    std::optional<std::string> last_check;    // "pass: ..." from checks.toml
    // Plain variables, in plan order (CUDA_PATH, CUDNN_PATH, CUDAENV_VERSION, ...).
    std::vector<std::pair<std::string, std::string>> set;
    // List variables (PATH, LD_LIBRARY_PATH): the entries the plan puts first.
    std::vector<std::pair<std::string, std::vector<std::string>>> prepend;
    // Variables the plan unsets (CUDNN_PATH for a pair without cuDNN).
    std::vector<std::string> unset;
    // The whole plan against the caller's environment, as `cudaenv env SPEC
    // --json` prints it (for formats that cannot prepend: dotenv, github-env).
    std::vector<std::pair<std::string, std::string>> here;
    // The value of a set variable, if the plan sets it.
    std::optional<std::string> get(const std::string& name) const;
};

// The pairs named by `specs` (every pair when `all`); throws a clear error
// for a spec that matches nothing. Duplicates are dropped.
std::vector<Pair> select_pairs(Store& store, const std::vector<std::string>& specs, bool all);

// What activating `pair` sets, independent of the caller's environment.
PairVars pair_vars(Store& store, const Pair& pair, const EnvReader& env, PathStyle style);

}  // namespace cudaenv::exporting
