// The Windows cuDNN installer: CUDNN\v9.x\bin\<cuda>\[x64], include\<cuda>
// (older installers, v9.1-v9.4: one include\ for all), lib\<cuda>\x64\; one
// build per CUDA subfolder, detected with that subfolder as its variant.
#include "core/cudalibs.hpp"
#include "core/layout/layout.hpp"
#include "util/fs.hpp"

namespace cudaenv::layout {

extern const CudnnRecognizer cudnn_installer = {
    CudnnLayout::installer,
    [](const fs::path&, const std::string& variant) { return !variant.empty(); },
    [](const fs::path& root, const std::string& variant) { return cudalibs::cudnn_installer_dll_dirs(root, variant); },
    [](const fs::path& root, const std::string& variant) {
        return std::vector<fs::path>{root / "include" / fsx::from_utf8(variant), root / "include"};
    },
    none,
};

}  // namespace cudaenv::layout
