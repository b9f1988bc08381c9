#pragma once
// The layouts a CUDA toolkit or a cuDNN comes in, one recognizer each (as a
// compiler wrapper keeps one recognizer per compiler): what tells the layout
// apart, and the folders where it keeps its libraries and headers. Detection
// asks the recognizers in order and the first that knows the folder wins;
// everything that searches a pair's libraries (check, trace, doctor, the
// detection cache's key) asks `search_dirs`. A new layout is one file and one
// row in the list (layout.cpp). Reads names and small files only; never loads
// a library.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::layout {

namespace fs = std::filesystem;

enum class ToolkitLayout {
    debian,        // Debian's nvidia-cuda-toolkit: tools here, libraries in the system folder
    pip,           // a wheel: site-packages/nvidia/cuda_runtime (+ its dist-info)
    runtime_only,  // a bare folder holding the CUDA runtime itself
    standard,      // NVIDIA's installers and archives: bin/, lib64/ or targets/, bin\x64 on Windows
};
enum class CudnnLayout {
    installer,  // the Windows installer: bin\<cuda>\[x64], one build per CUDA subfolder
    pip,        // a wheel: site-packages/nvidia/cudnn (+ its dist-info)
    system,     // Debian/Ubuntu packages: the system library folder, /usr/include
    archive,    // NVIDIA's tar/zip archives: include/, lib/ or bin/
    flat,       // a folder of libraries alone
};

// The names used in the caches, JSON and messages ("runtime-only", "archive").
std::string_view name(ToolkitLayout l);
std::string_view name(CudnnLayout l);
std::optional<ToolkitLayout> toolkit_layout(std::string_view name);
std::optional<CudnnLayout> cudnn_layout(std::string_view name);

struct ToolkitRecognizer {
    ToolkitLayout layout;
    // Whether the folder `root` (absolute, normal) is in this layout.
    bool (*recognizes)(const fs::path& root);
    // Folders that may hold its Linux libraries, most specific first.
    std::vector<fs::path> (*lib_dirs)(const fs::path& root);
    // Headers that carry its version (read when version.json does not).
    std::vector<fs::path> (*headers)(const fs::path& root);
    // Folders outside the root that hold its libraries (Debian: the system folder).
    std::vector<fs::path> (*outside_dirs)();
};

struct CudnnRecognizer {
    CudnnLayout layout;
    // Whether `root` is in this layout; `variant` is the installer's CUDA
    // subfolder ("12.9"), empty for every other layout.
    bool (*recognizes)(const fs::path& root, const std::string& variant);
    // Folders that may hold its libraries (Linux) or DLLs (Windows).
    std::vector<fs::path> (*lib_dirs)(const fs::path& root, const std::string& variant);
    // Folders that may hold cudnn_version.h.
    std::vector<fs::path> (*include_dirs)(const fs::path& root, const std::string& variant);
    std::vector<fs::path> (*outside_dirs)();
};

// Asked in this order; the last of each recognizes every folder.
const std::vector<const ToolkitRecognizer*>& toolkit_recognizers();
const std::vector<const CudnnRecognizer*>& cudnn_recognizers();
const ToolkitRecognizer& recognize_toolkit(const fs::path& root);
const CudnnRecognizer& recognize_cudnn(const fs::path& root, const std::string& variant);
const ToolkitRecognizer& recognizer(ToolkitLayout l);
const CudnnRecognizer& recognizer(CudnnLayout l);

// The recognizers, one file each.
extern const ToolkitRecognizer toolkit_debian, toolkit_pip, toolkit_runtime_only, toolkit_standard;
extern const CudnnRecognizer cudnn_installer, cudnn_pip, cudnn_system, cudnn_archive, cudnn_flat;

// What the recognizers share.
// File names in a folder (not recursive); empty when it cannot be read.
std::vector<std::string> list_names(const fs::path& dir);
// Whether `dir` is one of the OS's own library folders.
bool is_system_lib_dir(const fs::path& dir);
// The folders NVIDIA's own layout keeps a toolkit's libraries in, and the
// root itself; the headers that carry its version.
std::vector<fs::path> toolkit_lib_dirs(const fs::path& root);
std::vector<fs::path> toolkit_headers(const fs::path& root);
// The folders a cuDNN outside the installer keeps its libraries in, and the
// root itself; its include folders.
std::vector<fs::path> cudnn_lib_dirs(const fs::path& root);
std::vector<fs::path> cudnn_include_dirs(const fs::path& root);
// No folder outside the root.
std::vector<fs::path> none();
// A wheel's metadata: site-packages/<prefix>_cu<N>-<version>.dist-info beside
// site-packages/nvidia/<package> gives {version, CUDA major N}.
std::optional<std::pair<Version, int>> pip_dist_info(const fs::path& package_root, const std::string& prefix);

}  // namespace cudaenv::layout
