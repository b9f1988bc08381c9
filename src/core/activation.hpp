#pragma once
// What `use` and `deactivate` change, as a list of variable assignments that
// a shell backend renders. Pure: reads the environment through a callback.
//
// PATH (and LD_LIBRARY_PATH on Linux): every entry that belongs to a known
// toolkit/cuDNN or a usual CUDA install place is removed, the pair's folders
// go first, all other entries keep their order. CUDA_PATH, CUDA_HOME,
// CUDNN_PATH, CUDNN_HOME (+ CUDA_PATH_V<maj>_<min> on Windows) and
// CUDAENV_VERSION are set. The values from before the first `use` are kept
// in __CUDAENV_STATE so `deactivate` restores them byte for byte.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/pathlist.hpp"
#include "core/pairs.hpp"

namespace cudaenv {

struct EnvChange {
    std::string name;
    std::optional<std::string> value;  // nullopt: unset
    bool operator==(const EnvChange&) const = default;
};

using EnvReader = std::function<std::optional<std::string>(const std::string&)>;
using OwnedEntry = std::function<bool(const std::string&)>;

inline constexpr const char* state_var = "__CUDAENV_STATE";
// cmd.exe ignores a PATH longer than this.
inline constexpr size_t cmd_path_limit = 8191;

// The folders a pair puts first, as UTF-8 strings.
struct PairEnv {
    std::string spec;                     // CUDAENV_VERSION
    std::string cuda_root;
    Version cuda_version;
    std::optional<std::string> cudnn_root;
    std::vector<std::string> path_dirs;   // PATH, in order
    std::vector<std::string> lib_dirs;    // LD_LIBRARY_PATH, in order
};

PairEnv pair_env(const DetectedPair& pair, const std::string& spec);

// Changes that activate `pair` (nullopt: "system", the environment as it was
// before any `use`, with CUDAENV_VERSION=system). Throws Error when the
// resulting PATH would exceed cmd's limit under Windows semantics.
std::vector<EnvChange> plan_use(const std::optional<PairEnv>& pair, const std::string& spec, const EnvReader& env,
                                const OwnedEntry& owned, PathStyle style);

// Changes that undo every `use` of this session; empty when none is active.
std::vector<EnvChange> plan_deactivate(const EnvReader& env, PathStyle style);

// True when a PATH entry belongs to a known install: below one of `roots`,
// or in a usual CUDA place (/usr/local/cuda, /usr/local/cuda-12.6, /opt/cuda12, ...\CUDA\v*,
// ...\CUDNN\v*; not /opt/cudaenv).
bool is_cuda_entry(const std::string& entry, const std::vector<std::string>& roots, PathStyle style);
// The roots of everything the store knows (store folders, adopted folders).
std::vector<std::string> known_roots(Store& store);

}  // namespace cudaenv
