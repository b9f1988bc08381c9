#pragma once
// Recognises a CUDA toolkit or cuDNN folder in any of the layouts users have:
// NVIDIA's installers and archives (Linux and Windows, CUDA 13's bin\x64),
// pip wheels (site-packages/nvidia/...), Debian/Ubuntu system packages, and
// the Windows cuDNN installer (CUDNN\v9.x\bin\12.x[\x64]). Reads files only;
// never loads a library.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

struct Toolkit {
    fs::path root;                 // CUDA_PATH / CUDA_HOME
    Version version;
    std::string version_source;    // "version.json", "cuda_runtime_api.h", a library name, ...
    std::string layout;            // "standard", "pip", "debian", "runtime-only"
    std::vector<fs::path> bin_dirs;  // go first on PATH (tools; Windows DLLs too)
    std::vector<fs::path> lib_dirs;  // go first on LD_LIBRARY_PATH (Linux shared libraries)
    bool windows = false;          // a Windows layout (DLLs), whatever the host is
    fs::path nvcc;                 // bin/nvcc[.exe]; empty for a runtime-only toolkit
};

struct Cudnn {
    fs::path root;                 // CUDNN_PATH / CUDNN_HOME
    std::string variant;           // installer layout: the "12.9" subfolder; else empty
    Version version;
    int cuda_major = 0;            // the CUDA major it was built for; 0 = unknown
    std::string cuda_major_source;
    std::string layout;            // "archive", "pip", "system", "installer", "flat"
    std::vector<fs::path> bin_dirs;  // Windows DLL folders (PATH)
    std::vector<fs::path> lib_dirs;  // Linux library folders (LD_LIBRARY_PATH)
    fs::path include_dir;
    bool windows = false;
};

// nullopt when `dir` holds no nvcc and no CUDA runtime library.
std::optional<Toolkit> detect_toolkit(const fs::path& dir);

// Every cuDNN build in `dir`: one, or one per CUDA subfolder for the Windows
// installer layout. Empty when `dir` holds no cuDNN.
std::vector<Cudnn> detect_cudnns(const fs::path& dir);
// The build of `dir` for installer subfolder `variant` ("" for the others).
std::optional<Cudnn> detect_cudnn(const fs::path& dir, const std::string& variant = {});

// Parsers, exposed for tests.
std::optional<Version> cudnn_version_from_header(const std::string& text);
std::optional<Version> cuda_version_from_version_json(const std::string& text);
std::optional<Version> cuda_version_from_header(const std::string& text);
// The CUDA major of the installed libcudnn<N>-cuda-<M> package (dpkg's
// info folder); 0 when none or more than one.
int cuda_major_from_dpkg(const fs::path& info_dir, int cudnn_major);
// "cudnn-linux-x86_64-8.9.7.29_cuda11-archive" -> 11; 0 when absent.
int cuda_major_from_archive_name(const std::string& name);

}  // namespace cudaenv
