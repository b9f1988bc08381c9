// A bare folder with the CUDA runtime itself in it (libcudart.so.12 copied
// next to an application, a runtime unpacked on its own).
#include "core/cudalibs.hpp"
#include "core/layout/layout.hpp"

namespace cudaenv::layout {

extern const ToolkitRecognizer toolkit_runtime_only = {
    ToolkitLayout::runtime_only,
    [](const fs::path& root) {
        for (const auto& n : list_names(root))
            if (cudalibs::is_linux_lib(n, cudalibs::linux_cudart)) return true;
        return false;
    },
    toolkit_lib_dirs,
    toolkit_headers,
    none,
};

}  // namespace cudaenv::layout
