#pragma once
// doctor's Windows topics about the pair's other clients (docs/python.md,
// docs/msvc.md):
//   python_dll_hook: the Python environment of this shell (VIRTUAL_ENV,
//     CONDA_PREFIX, else python.exe on PATH) lacks cudaenv's DLL hook while
//     extension modules in its site-packages import CUDA or cuDNN DLLs that
//     are not beside them, which Python 3.8+ does not look for on PATH;
//   msvc: the Visual Studio toolsets installed and the newest one the active
//     pair's nvcc accepts, and whether this session has one entered.
// doctor adds them on Windows only (each says so when asked elsewhere).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "check/doctor_input.hpp"
#include "store/msvc.hpp"

namespace cudaenv::check {

Finding python_hook_finding(const DoctorInput& in);

// The extension modules (.pyd) below `site_packages` that import a CUDA or
// cuDNN DLL not beside them: each module and the names it imports. A bounded
// walk (folders `max_depth` deep, `max_entries` names at most).
struct CudaExtension {
    std::filesystem::path module;
    std::vector<std::string> dlls;
};
std::vector<CudaExtension> cuda_extensions(const std::filesystem::path& site_packages, int max_depth = 8,
                                           size_t max_entries = 200000);

Finding msvc_finding(const DoctorInput& in, const InstalledToolsets& vs);

}  // namespace cudaenv::check
