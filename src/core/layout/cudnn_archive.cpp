// NVIDIA's archives (cudnn-linux-x86_64-8.9.7.29_cuda11-archive): include/
// and lib/ on Linux; bin\ (>= 9.18: bin\x64\) and lib\x64\ on Windows.
#include "core/layout/layout.hpp"
#include "util/fs.hpp"

namespace cudaenv::layout {

extern const CudnnRecognizer cudnn_archive = {
    CudnnLayout::archive,
    [](const fs::path& root, const std::string& variant) { return variant.empty() && fsx::is_dir(root / "include"); },
    [](const fs::path& root, const std::string&) { return cudnn_lib_dirs(root); },
    [](const fs::path& root, const std::string&) { return cudnn_include_dirs(root); },
    none,
};

}  // namespace cudaenv::layout
