#pragma once
// What NVIDIA's archives and manifests are called and what an installed
// cuDNN or toolkit must contain (docs/install.md). Names come from the
// network, a mirror folder or the command line, so they are read by bounded
// scanners, each a single pass, never a backtracking matcher (std::regex
// recurses once per character: a long name overflows the stack).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::install {

namespace fs = std::filesystem;

// "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz" or
// "cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz".
struct ArchiveName {
    std::string component;  // "cudnn", "cuda_cudart", "libcublas"
    std::string platform;   // "linux-x86_64", "windows-x86_64"
    Version version;        // 8.9.7.29, 11.8.89
    int cuda_major = 0;     // cuDNN only
    std::string extension;  // "tar.xz" or "zip"
    bool is_cudnn() const { return component == "cudnn"; }
};

std::optional<ArchiveName> parse_archive_name(std::string_view file_name);

// The release of a manifest file name: "redistrib_12.6.3.json" -> 12.6.3;
// nullopt for any other name.
std::optional<Version> manifest_release(std::string_view file_name);

// The most releases one listing may name (NVIDIA's name about 100).
inline constexpr size_t kMaxListedReleases = 10000;

// The releases a directory listing page names (href="redistrib_12.6.3.json"),
// newest first, in one pass over the page. Throws Error past kMaxListedReleases.
std::vector<Version> releases_from_listing(std::string_view html);

// Throws cudaenv::Error saying what is missing when `dir` is not a complete
// cuDNN `version` (its library set per major version, cudnn_version.h
// agreeing with `version`). `platform` picks Linux or Windows names.
void validate_cudnn(const fs::path& dir, const Version& version, const std::string& platform);

// The libraries (Linux sonames / Windows DLL names) a cuDNN major must ship.
std::vector<std::string> cudnn_required_libraries(int major, bool windows);

// Throws when the components that were installed lack their key files
// (the CUDA runtime library for cuda_cudart, nvcc for cuda_nvcc).
void validate_toolkit(const fs::path& dir, const std::map<std::string, std::string>& components,
                      const std::string& platform);

// Where a component's unpacked archive puts a folder that NVIDIA's installer
// keeps elsewhere in the toolkit: visual_studio_integration\ (MSBuild's CUDA
// build customization, CUDA <x.y>.props) goes to
// extras\visual_studio_integration\, where CMake's -T cuda=<folder> and
// `export msbuild`'s projects look (docs/msvc.md). Moves `dest`'s folder in
// place before it is merged; nothing for every other component.
void place_component(const std::string& component, const fs::path& dest);

// version.json in NVIDIA's format:
//   {"cuda": {"name": "CUDA SDK", "version": "12.6.3"}, "cuda_cudart": {"name": ..., "version": ...}}
// `components` maps component key -> {name, version}.
struct ComponentInfo {
    std::string name;
    std::string version;
};
std::string toolkit_version_json(const std::string& cuda_version, const std::map<std::string, ComponentInfo>& components);
// The components a toolkit's version.json lists (without "cuda" itself).
std::map<std::string, ComponentInfo> read_version_json_components(const fs::path& toolkit_dir);

}  // namespace cudaenv::install
