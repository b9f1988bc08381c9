// NVIDIA's installers and archives: bin/nvcc, lib64/ or targets/<arch>/lib on
// Linux, bin\ (CUDA 13: bin\x64\) on Windows. It recognizes every folder: it
// is asked last.
#include "core/layout/layout.hpp"

namespace cudaenv::layout {

extern const ToolkitRecognizer toolkit_standard = {
    ToolkitLayout::standard,
    [](const fs::path&) { return true; },
    toolkit_lib_dirs,
    toolkit_headers,
    none,
};

}  // namespace cudaenv::layout
