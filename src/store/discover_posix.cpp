// Where NVIDIA's installers and Python put toolkits and cuDNNs on Linux
// (store/discover.hpp lists both OSes).
#include "store/discover.hpp"

#include "platform/platform.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

DefaultPlaces default_places() {
    DefaultPlaces p;
    for (auto pattern : {"/usr/local/cuda*", "/opt/cuda*"})
        for (const auto& d : glob_dirs(pattern)) p.folders.push_back(d);
    p.folders.push_back("/usr/lib/nvidia-cuda-toolkit");
    p.folders.push_back(platform::system_library_dirs().front());
    std::vector<fs::path> bases = {"/usr/lib", "/usr/local/lib", platform::home_dir() / ".local" / "lib"};
    for (auto v : {"VIRTUAL_ENV", "CONDA_PREFIX"})
        if (auto e = env_folder(v)) bases.push_back(*e / "lib");
    for (auto pattern : {"/opt/*/lib", "/opt/*/.venv/lib", "/opt/*/venv/lib"})
        for (const auto& d : glob_dirs(pattern)) bases.push_back(d);
    for (const auto& b : bases)
        for (auto sp : {"site-packages", "dist-packages"}) p.site_packages.push_back(b / "python3*" / sp);
    return p;
}

}  // namespace cudaenv
