// Where NVIDIA's installers and Python put toolkits and cuDNNs on Windows
// (store/discover.hpp lists both OSes).
#include "store/discover.hpp"

#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

DefaultPlaces default_places() {
    DefaultPlaces p;
    if (auto cuda = env_folder("CUDA_PATH")) p.folders.push_back(*cuda);
    for (const auto& [k, v] : platform::environment())
        if (str::starts_with_icase(k, "CUDA_PATH_V") && !v.empty()) p.folders.push_back(fsx::from_utf8(v));
    for (const char* pf : {"ProgramFiles", "ProgramW6432"}) {
        auto base = env_folder(pf);
        if (!base) continue;
        for (const auto& d : glob_dirs(*base / "NVIDIA GPU Computing Toolkit" / "CUDA" / "v*")) p.folders.push_back(d);
        for (const auto& d : glob_dirs(*base / "NVIDIA" / "CUDNN" / "v*")) p.folders.push_back(d);
    }
    if (auto l = env_folder("LOCALAPPDATA"))
        p.site_packages.push_back(*l / "Programs" / "Python" / "Python3*" / "Lib" / "site-packages");
    if (auto v = env_folder("VIRTUAL_ENV")) p.site_packages.push_back(*v / "Lib" / "site-packages");
    if (auto c = env_folder("CONDA_PREFIX")) p.site_packages.push_back(*c / "Lib" / "site-packages");
    return p;
}

}  // namespace cudaenv
