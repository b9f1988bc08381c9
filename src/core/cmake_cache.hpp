#pragma once
// Build folders configured for another toolkit. CMake writes the CUDA
// compiler and FindCUDAToolkit's results into CMakeCache.txt at the first
// configure and never looks again, so after switching pairs a build folder
// keeps using the old toolkit without a word (docs/build-tools.md).
#include <filesystem>
#include <string>
#include <vector>

#include "core/pathlist.hpp"

namespace cudaenv {

struct StaleCmakeCache {
    std::filesystem::path file;  // the CMakeCache.txt
    std::string variable;        // CMAKE_CUDA_COMPILER, CUDAToolkit_BIN_DIR, ...
    std::string value;           // the path it holds, of another toolkit
};

// The CUDA paths a CMakeCache.txt holds: CMAKE_CUDA_COMPILER,
// CUDA_TOOLKIT_ROOT_DIR (FindCUDA) and every CUDAToolkit_* (FindCUDAToolkit)
// whose value is an absolute path; as {variable, value}, in file order.
std::vector<std::pair<std::string, std::string>> cmake_cache_cuda_paths(const std::string& text, PathStyle style);

// CMakeCache.txt in `dir` and in its build*/ children (one level, the first
// 64 entries that match; no deeper walk) whose CUDA paths lie outside
// `toolkit_root` (compared as written and with links resolved). One finding
// per file: its first such variable.
std::vector<StaleCmakeCache> stale_cmake_caches(const std::filesystem::path& dir,
                                                const std::filesystem::path& toolkit_root, PathStyle style);

// "build/CMakeCache.txt was configured for another toolkit (CMAKE_CUDA_COMPILER=...)" and the fix.
std::string describe(const StaleCmakeCache& s, const std::filesystem::path& relative_to);
std::string stale_cache_fix(const StaleCmakeCache& s, const std::filesystem::path& relative_to);

}  // namespace cudaenv
