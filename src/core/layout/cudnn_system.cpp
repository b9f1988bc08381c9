// Debian/Ubuntu packages (libcudnn9-cuda-12): the libraries in the system
// folder, the headers in /usr/include; adopted as /usr or as the library
// folder itself.
#include "core/layout/layout.hpp"
#include "platform/platform.hpp"

namespace cudaenv::layout {

extern const CudnnRecognizer cudnn_system = {
    CudnnLayout::system,
    [](const fs::path& root, const std::string& variant) {
        return variant.empty() && (is_system_lib_dir(root) || root == fs::path("/usr"));
    },
    [](const fs::path& root, const std::string&) { return cudnn_lib_dirs(root); },
    [](const fs::path& root, const std::string&) {
        auto dirs = cudnn_include_dirs(root);
        dirs.push_back("/usr/include");
        dirs.push_back("/usr/include/x86_64-linux-gnu");
        return dirs;
    },
    platform::system_library_dirs,
};

}  // namespace cudaenv::layout
