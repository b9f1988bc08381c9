// A pip wheel: site-packages/nvidia/cuda_runtime, its version and CUDA major
// in site-packages/nvidia_cuda_runtime_cu<N>-<version>.dist-info.
#include "core/layout/layout.hpp"

namespace cudaenv::layout {

extern const ToolkitRecognizer toolkit_pip = {
    ToolkitLayout::pip,
    [](const fs::path& root) { return pip_dist_info(root, "nvidia_cuda_runtime").has_value(); },
    toolkit_lib_dirs,
    toolkit_headers,
    none,
};

}  // namespace cudaenv::layout
