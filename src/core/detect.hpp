#pragma once
// Detects a CUDA toolkit or cuDNN folder in any of the layouts users have
// (core/layout: NVIDIA's installers and archives, pip wheels, Debian/Ubuntu
// packages, the Windows cuDNN installer): its version, the CUDA major a cuDNN
// was built for, and the folders that go on PATH and LD_LIBRARY_PATH. Reads
// files only; never loads a library.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/layout/layout.hpp"
#include "core/version.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

struct Toolkit {
    fs::path root;                 // CUDA_PATH / CUDA_HOME
    Version version;
    std::string version_source;    // "version.json", "cuda_runtime_api.h", a library name, ...
    layout::ToolkitLayout layout = layout::ToolkitLayout::standard;
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
    layout::CudnnLayout layout = layout::CudnnLayout::flat;
    std::vector<fs::path> bin_dirs;  // Windows DLL folders (PATH)
    std::vector<fs::path> lib_dirs;  // Linux library folders (LD_LIBRARY_PATH)
    fs::path include_dir;
    bool windows = false;
};

// Every folder where the libraries of `tk` / `c` may be: its own, and the
// ones its layout keeps outside its root (the system folder).
std::vector<fs::path> search_dirs(const Toolkit& tk);
std::vector<fs::path> search_dirs(const Cudnn& c);

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

// What reads a folder's toolkit or cuDNN for the pair model (core/pairs
// detect_pair): the disk itself, or the store's detection cache
// (store/detect_cache.hpp), which keeps the answers.
class FolderDetector {
public:
    virtual ~FolderDetector() = default;
    virtual std::optional<Toolkit> toolkit(const std::filesystem::path& dir) = 0;
    virtual std::optional<Cudnn> cudnn(const std::filesystem::path& dir, const std::string& variant) = 0;
};

}  // namespace cudaenv
