// A pip wheel: site-packages/nvidia/cudnn, its version and CUDA major in
// site-packages/nvidia_cudnn_cu<N>-<version>.dist-info.
#include "core/layout/layout.hpp"

namespace cudaenv::layout {

extern const CudnnRecognizer cudnn_pip = {
    CudnnLayout::pip,
    [](const fs::path& root, const std::string& variant) {
        return variant.empty() && pip_dist_info(root, "nvidia_cudnn").has_value();
    },
    [](const fs::path& root, const std::string&) { return cudnn_lib_dirs(root); },
    [](const fs::path& root, const std::string&) { return cudnn_include_dirs(root); },
    none,
};

}  // namespace cudaenv::layout
