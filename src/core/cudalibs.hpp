#pragma once
// What CUDA and cuDNN libraries are called on each OS and major version, and
// in which folders each layout keeps them (docs/check.md, "Library names and
// folders"). Detection, `check` and `doctor` all ask here, so a new cuDNN
// major or layout is one edit. Plain string tests, no std::regex: detection
// runs on every tool shim call.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::cudalibs {

namespace fs = std::filesystem;

// Linux names are <base>, <base>.<major>, <base>.<x.y.z>.
inline constexpr std::string_view linux_cudart = "libcudart.so";
inline constexpr std::string_view linux_cudnn = "libcudnn.so";
inline constexpr std::string_view linux_driver = "libcuda.so";  // the driver's own, never a pair's
// Windows names are <prefix><digits>.dll, any case.
inline constexpr std::string_view windows_cudart = "cudart64_";
inline constexpr std::string_view windows_cudnn = "cudnn64_";

// The CUDA runtime a program of CUDA `cuda_major` loads: libcudart.so.12,
// libcudart.so.11.0 (every 11.x), cudart64_12.dll, cudart64_110.dll.
std::string cudart_name(int cuda_major, bool windows);
// Every library of a cuDNN major, the front one first (libcudnn.so.9 or
// cudnn64_9.dll, which loads the others): 7 for cuDNN 8, 8 for cuDNN 9.
std::vector<std::string> cudnn_names(int cudnn_major, bool windows);
// The driver's CUDA library and NVML, as cudaenv-probe loads them by name
// (nvidia/probe_gpus), the usual name first: libcuda.so.1 and WSL's copy,
// nvcuda.dll; libnvidia-ml.so.1, nvml.dll and where older drivers kept it.
std::vector<std::string> driver_names(bool windows);
std::vector<std::string> nvml_names(bool windows);
// The toolkit's main libraries (reported by `check`, loaded only by programs
// that use them): cublas, cublasLt, cufft, curand, cusparse, nvrtc.
const std::vector<std::string>& toolkit_libraries();

// `name` is <base>, or <base>.<digits and dots> (libcudnn.so.9.14.0).
bool is_linux_lib(std::string_view name, std::string_view base);
// The x.y.z of <base>.x.y.z; nullopt for other names.
std::optional<Version> linux_lib_full_version(std::string_view name, std::string_view base);
// The digits of <prefix><digits>.dll, any case ("110" for cudart64_110.dll).
std::optional<std::string> windows_dll_digits(std::string_view name, std::string_view prefix);
// The CUDA major cudart64_<digits>.dll stands for: "110" -> 11, "12" -> 12.
int cuda_major_of_cudart_digits(const std::string& digits);
// A library of toolkit library `lib` whatever its own major (libcufft.so.11
// in CUDA 12, cufft64_11.dll): lib<lib>.so.<digits>, <lib>64_<digits>.dll.
bool is_toolkit_library(std::string_view name, std::string_view lib, bool windows);
// The cuDNN major of a front library name (libcudnn.so.9[.x.y], cudnn64_9.dll).
std::optional<int> cudnn_major_of(std::string_view name, bool windows);

// Which part of a pair a library belongs to, from its file name alone
// (libcudnn_ops.so.9 and cudnn64_9.dll: cudnn; libcublas.so.12, nvrtc64_120_0.dll:
// toolkit; libcuda.so.1, nvcuda.dll, libnvidia-ml.so.1: driver).
enum class Family { cudnn, toolkit, driver, none };
Family family_of(std::string_view file_name);
// The version a library's file name carries: "9.8.0" from libcudnn_ops.so.9.8.0,
// "9" from libcudnn.so.9, "11.0" from cudart64_110.dll, "8" from cudnn64_8.dll.
// With `full_only`, only a Linux x.y[.z]. Empty when the name carries none.
std::string version_from_file_name(std::string_view name, bool full_only = false);
// The CUDA major that a library a cuDNN links against stands for
// (libcublasLt.so.12, libcublas.so.11, libcudart.so.11.0, libnvrtc.so.12); 0 otherwise.
int cuda_major_of_dependency(std::string_view needed);
// Whether `name` is a CUDA runtime library: libcudart.so.<digits...>, cudart64_<digits>.dll.
bool is_cudart(std::string_view name, bool windows);
// Whether a Windows cuDNN of this version loads zlibwapi.dll, which NVIDIA's
// archives do not ship: 8.3 to 8.9 (docs/install.md).
bool needs_zlibwapi(const Version& cudnn);
inline constexpr std::string_view zlibwapi_dll = "zlibwapi.dll";
// The headers a cuDNN's version is read from, in the order they are tried:
// cudnn_version.h (8.0 on), Debian's per-major copies, cudnn.h (before 8.0).
const std::vector<std::string>& cudnn_version_headers();
// Whether a file is named as a shared library is: x.so, x.so.12[.1], x.dll (any case).
bool is_library_file(std::string_view name);

// Folders under a toolkit root that hold Linux libraries, most specific first.
std::vector<fs::path> toolkit_lib_dirs(const fs::path& root);
// Folders under a toolkit root that hold Windows DLLs (CUDA 13: bin\x64).
std::vector<fs::path> toolkit_dll_dirs(const fs::path& root);
// Folders under a cuDNN root (archive, pip, system, flat) that may hold its libraries.
std::vector<fs::path> cudnn_lib_dirs(const fs::path& root);
// The Windows cuDNN installer's DLL folders for one CUDA variant: bin\<v>\x64, bin\<v>.
std::vector<fs::path> cudnn_installer_dll_dirs(const fs::path& root, const std::string& variant);

}  // namespace cudaenv::cudalibs
