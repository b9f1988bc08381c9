// Debian's nvidia-cuda-toolkit: /usr/lib/nvidia-cuda-toolkit holds bin/nvcc,
// the libraries are in the system folder and the headers in /usr/include.
#include "core/layout/layout.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"

namespace cudaenv::layout {

namespace {

std::vector<fs::path> outside() { return {platform::system_library_dirs().front()}; }

}  // namespace

extern const ToolkitRecognizer toolkit_debian = {
    ToolkitLayout::debian,
    [](const fs::path& root) { return fsx::to_utf8(root.filename()) == "nvidia-cuda-toolkit"; },
    [](const fs::path& root) {
        auto dirs = outside();
        for (auto& d : toolkit_lib_dirs(root)) dirs.push_back(std::move(d));
        return dirs;
    },
    [](const fs::path& root) {
        auto headers = toolkit_headers(root);
        headers.push_back("/usr/include/cuda_runtime_api.h");
        return headers;
    },
    outside,
};

}  // namespace cudaenv::layout
