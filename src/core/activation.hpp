#pragma once
// What `use` and `deactivate` change, as one EnvDiff (core/env_diff.hpp) that
// every renderer draws. Pure: reads the environment through a callback.
//
// PATH (and LD_LIBRARY_PATH on Linux): every entry that belongs to a known
// toolkit/cuDNN or a usual CUDA install place is removed, the pair's folders
// go first, all other entries keep their order. CUDA_PATH, CUDA_HOME,
// CUDNN_PATH, CUDNN_HOME, CUDACXX (the pair's nvcc, for CMake),
// CUDAToolkit_ROOT (FindCUDAToolkit), CUDA_PATH_V<maj>_<min> on Windows (the
// Visual Studio CUDA build customization) and CUDAENV_VERSION are set; on
// Windows also CUDAENV_DLL_DIRS (the pair's DLL folders, for the Python hook
// of python/cudaenv_dll_hook.py) and, with `use --msvc`, the variables of a
// Visual Studio toolset (core/toolset_env.hpp, core/msvc.hpp) and CUDAENV_MSVC. The values from
// before the first `use` are kept in __CUDAENV_STATE so `deactivate` restores
// them byte for byte.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/env_diff.hpp"
#include "core/toolset_env.hpp"
#include "core/pathlist.hpp"
#include "core/pairs.hpp"
#include "core/spec.hpp"

namespace cudaenv {

using EnvReader = std::function<std::optional<std::string>(const std::string&)>;
using OwnedEntry = std::function<bool(const std::string&)>;

inline constexpr const char* state_var = "__CUDAENV_STATE";
// The pair's DLL folders, which Python's DLL hook adds (Windows).
inline constexpr const char* dll_dirs_var = "CUDAENV_DLL_DIRS";
// The Visual Studio toolset `use --msvc` entered (its version).
inline constexpr const char* msvc_var = "CUDAENV_MSVC";
// cmd.exe ignores a PATH longer than this.
inline constexpr size_t cmd_path_limit = 8191;

// The folders a pair puts first, as UTF-8 strings.
struct PairEnv {
    std::string spec;                     // CUDAENV_VERSION: the exact pair
    std::string cuda_root;
    std::optional<std::string> nvcc;      // CUDACXX; nullopt for a runtime-only toolkit
    Version cuda_version;
    std::optional<std::string> cudnn_root;
    std::vector<std::string> path_dirs;   // PATH, in order
    std::vector<std::string> lib_dirs;    // LD_LIBRARY_PATH, in order
    // Set only where the user had no value before cudaenv (NVCC_CCBIN, CUDAHOSTCXX).
    std::vector<std::pair<std::string, std::string>> defaults;
    // Windows: the folders Python's DLL hook adds (CUDAENV_DLL_DIRS): the
    // DLL folders of path_dirs, and zlibwapi.dll's where the pair needs it.
    std::vector<std::string> dll_dirs;
    // `use --msvc`: the Visual Studio toolset entered with the pair.
    std::optional<ToolsetEnv> toolset;
};

// CUDAENV_DLL_DIRS's value: the folders joined by ';' as in PATH, one that
// holds a ';' in double quotes (a Windows folder name cannot hold one).
std::string dll_dirs_value(const std::vector<std::string>& dirs);

PairEnv pair_env(const DetectedPair& pair, const std::string& spec);

// Variable names are written into shell code unquoted, and some come back
// from the environment or the store's cache: plain identifiers only
// ([A-Za-z_][A-Za-z0-9_]*, at most 64 characters).
bool valid_env_name(std::string_view n);

// What activating `pair` does (nullopt: "system", the environment as it was
// before any `use`, with CUDAENV_VERSION=system): the pair's intent, each
// edit with its value in `env`, and the state `deactivate` needs. Throws
// Error when the resulting PATH would exceed cmd's limit under Windows
// semantics.
EnvDiff plan_use(const std::optional<PairEnv>& pair, const std::string& spec, const EnvReader& env,
                                const OwnedEntry& owned, PathStyle style);

// Puts `dir` first on the list `var` (LD_LIBRARY_PATH) of a pair's activation
// planned by plan_use, as one more folder the pair puts first, with the
// record `deactivate` restores from kept in step: forward compatibility's
// cuda-compat libraries (gpu/pair_code decides when). Nothing when the plan
// does not prepend to `var`.
void put_first(EnvDiff& diff, const std::string& var, const std::string& dir, PathStyle style);

// True when `name` holds the value `use` last set in this session, so not a
// value of the user's (doctor and check say whose a NVCC_CCBIN is).
bool set_by_cudaenv(const EnvReader& env, const std::string& name);

// What undoes every `use` of this session (restores and state); empty when none is active.
EnvDiff plan_deactivate(const EnvReader& env, PathStyle style);

// True when a PATH entry belongs to a known install: below one of `roots`,
// or in a usual CUDA place (/usr/local/cuda, /usr/local/cuda-12.6, /opt/cuda12, ...\CUDA\v*,
// ...\CUDNN\v*; not /opt/cudaenv).
bool is_cuda_entry(const std::string& entry, const std::vector<std::string>& roots, PathStyle style);
// The roots of everything the store knows: its own folders (`own_dirs`:
// where it installs toolkits and cuDNNs) and each record's folder, except a
// shared system folder (/usr, a system library folder, a drive's root).
std::vector<std::string> known_roots(const std::vector<std::filesystem::path>& own_dirs,
                                     const std::vector<ToolkitRecord>& toolkits, const std::vector<CudnnRecord>& cudnns);

// An environment block, as the OS hands one to a child process.
using EnvBlock = std::vector<std::pair<std::string, std::string>>;
// Variable names: Windows folds ASCII case (Path is PATH), POSIX does not.
bool same_env_name(std::string_view a, std::string_view b, PathStyle style);
// `env` with `changes` applied: each changed name replaced (or removed).
void apply_changes(EnvBlock& env, const std::vector<EnvChange>& changes, PathStyle style);

// The one activation path. `use`, `env`, `exec`, `hook-env`, check's runner
// and the tool shim all go spec -> pair -> folders (from the detection
// cache) -> changes through here, and differ only in what they do with the
// changes: render them for a shell (shell/shell.hpp render()), apply them
// to a child's environment block, or print them as JSON.
struct Activation {
    std::string spec;                   // the spec as asked ("12", "system")
    // The exact pair (unique_spec: "12.6.3+9.8.0", "12.6.3@cuda-12.6+9.8.0"),
    // or "system": what CUDAENV_VERSION is set to.
    std::string full_spec;
    std::optional<Pair> pair;           // nullopt for system
    std::optional<DetectedPair> folders;
    EnvDiff diff;
    // What cudaenv chose on the user's behalf (a host compiler), for `use` to say on stderr.
    std::vector<std::string> notes;
    // When the spec matched more than one install: which one it took, why,
    // and the exact spec of each other (choice_explanation in core/pairs.hpp).
    std::vector<std::string> choice;
    // Read from the store's cache (store/activation_cache.hpp), not planned.
    bool kept = false;

    // The environment block `env` with this activation applied.
    EnvBlock applied_to(EnvBlock env, PathStyle style) const;
    // {"prepend": {...}, "set": {...}, "unset": [...]}, two-space indented:
    // what is set and unset in this environment, and each list's folders put first.
    std::string json() const;
};

}  // namespace cudaenv
