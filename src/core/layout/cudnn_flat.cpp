// A folder of cuDNN libraries and nothing else (copied next to an
// application). It recognizes every folder: it is asked last.
#include "core/layout/layout.hpp"

namespace cudaenv::layout {

extern const CudnnRecognizer cudnn_flat = {
    CudnnLayout::flat,
    [](const fs::path&, const std::string&) { return true; },
    [](const fs::path& root, const std::string&) { return cudnn_lib_dirs(root); },
    [](const fs::path& root, const std::string&) { return cudnn_include_dirs(root); },
    none,
};

}  // namespace cudaenv::layout
