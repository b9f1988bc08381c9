#pragma once
// Where toolkits and cuDNNs usually live, per platform:
//   Linux:   /usr/local/cuda*, /opt/cuda*, /usr/lib/nvidia-cuda-toolkit, the
//            system library folder (cuDNN packages), Python site-packages
//            (pip's nvidia/cudnn, nvidia/cuda_runtime, nvidia/cu13)
//   Windows: CUDA_PATH, CUDA_PATH_V*_*, Program Files\NVIDIA GPU Computing
//            Toolkit\CUDA\v*, Program Files\NVIDIA\CUDNN\v*, Python site-packages
#include <filesystem>
#include <optional>
#include <vector>

#include "store/adopt.hpp"

namespace cudaenv {

// The folders to inspect. With `roots` (from --root or CUDAENV_DISCOVER_ROOTS),
// each root, its subfolders and any pip layout below it replace the defaults.
std::vector<std::filesystem::path> discovery_candidates(const std::vector<std::filesystem::path>& roots);

// Everything found in those folders, each once.
std::vector<Found> discover(const std::vector<std::filesystem::path>& roots, Store& store);

// Where toolkits and cuDNNs usually are on this OS (the list above), the
// answer of store/discover_posix.cpp or discover_win32.cpp: folders to
// inspect, and patterns of Python's site-packages folders (pip's layouts).
struct DefaultPlaces {
    std::vector<std::filesystem::path> folders, site_packages;
};
DefaultPlaces default_places();

// The folder an environment variable names (CUDA_PATH, VIRTUAL_ENV, ...), if set and not empty.
std::optional<std::filesystem::path> env_folder(const char* name);

// Folders matching a pattern whose components may hold one '*' each
// ("/opt/*/lib/python3*/site-packages"). Exposed for tests.
std::vector<std::filesystem::path> glob_dirs(const std::filesystem::path& pattern);

}  // namespace cudaenv
