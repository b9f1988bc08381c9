#include "core/cudalibs.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::cudalibs {

std::string cudart_name(int cuda_major, bool windows) {
    // CUDA 11 kept one soname (and DLL name) for all its minors.
    if (windows) return "cudart64_" + (cuda_major == 11 ? std::string("110") : std::to_string(cuda_major)) + ".dll";
    return "libcudart.so." + (cuda_major == 11 ? std::string("11.0") : std::to_string(cuda_major));
}

std::vector<std::string> driver_names(bool windows) {
    if (windows) return {"nvcuda.dll"};
    return {std::string(linux_driver) + ".1", "/usr/lib/wsl/lib/libcuda.so.1"};
}

std::vector<std::string> nvml_names(bool windows) {
    if (windows) return {"nvml.dll", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"};
    return {"libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1"};
}

std::vector<std::string> cudnn_names(int cudnn_major, bool windows) {
    std::vector<std::string> parts;
    if (cudnn_major == 8) parts = {"", "_ops_infer", "_ops_train", "_cnn_infer", "_cnn_train", "_adv_infer", "_adv_train"};
    else if (cudnn_major >= 9)
        parts = {"", "_graph", "_ops", "_cnn", "_adv", "_engines_precompiled", "_engines_runtime_compiled", "_heuristic"};
    else parts = {""};
    std::vector<std::string> out;
    auto m = std::to_string(cudnn_major);
    for (const auto& p : parts) out.push_back(windows ? "cudnn" + p + "64_" + m + ".dll" : "libcudnn" + p + ".so." + m);
    return out;
}

const std::vector<std::string>& toolkit_libraries() {
    static const std::vector<std::string> libs = {"cublas", "cublasLt", "cufft", "curand", "cusparse", "nvrtc"};
    return libs;
}

bool is_linux_lib(std::string_view n, std::string_view base) {
    if (!n.starts_with(base)) return false;
    auto rest = n.substr(base.size());
    if (rest.empty()) return true;
    return rest.size() >= 2 && rest[0] == '.' && rest.substr(1).find_first_not_of("0123456789.") == std::string_view::npos;
}

std::optional<Version> linux_lib_full_version(std::string_view n, std::string_view base) {
    if (!n.starts_with(base) || n.size() <= base.size() || n[base.size()] != '.') return std::nullopt;
    auto v = Version::parse(n.substr(base.size() + 1));
    if (!v || v->parts().size() != 3) return std::nullopt;
    return v;
}

std::optional<std::string> windows_dll_digits(std::string_view n, std::string_view prefix) {
    if (n.size() <= prefix.size() + 4 || !str::starts_with_icase(n, prefix)) return std::nullopt;
    if (!str::iequals_ascii(n.substr(n.size() - 4), ".dll")) return std::nullopt;
    auto digits = n.substr(prefix.size(), n.size() - prefix.size() - 4);
    if (digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    return std::string(digits);
}

int cuda_major_of_cudart_digits(const std::string& digits) {
    int major = 0;
    str::parse_int(digits.size() == 3 ? digits.substr(0, 2) : digits, major);
    return major;
}

bool is_toolkit_library(std::string_view n, std::string_view lib, bool windows) {
    if (windows) return windows_dll_digits(n, std::string(lib) + "64_").has_value();
    std::string base = "lib" + std::string(lib) + ".so.";
    if (!n.starts_with(base) || n.size() == base.size()) return false;
    return n.substr(base.size()).find_first_not_of("0123456789") == std::string_view::npos;
}

std::optional<int> cudnn_major_of(std::string_view n, bool windows) {
    int major = 0;
    if (windows) {
        auto d = windows_dll_digits(n, windows_cudnn);
        if (!d || !str::parse_int(*d, major)) return std::nullopt;
        return major;
    }
    std::string base = std::string(linux_cudnn) + ".";
    if (!n.starts_with(base) || !is_linux_lib(n, linux_cudnn)) return std::nullopt;
    auto rest = n.substr(base.size());
    if (!str::parse_int(rest.substr(0, rest.find('.')), major)) return std::nullopt;
    return major;
}

Family family_of(std::string_view file_name) {
    const auto n = str::to_lower_ascii(file_name);
    const std::string_view bare = std::string_view(n).substr(n.starts_with("lib") ? 3 : 0);
    for (auto p : {"cuda.so", "nvidia", "nvcuda", "nvml"})
        if (bare.starts_with(p)) return Family::driver;
    if (bare.starts_with("cudnn")) return Family::cudnn;
    for (auto p : {"cudart", "cublas", "cufft", "curand", "cusolver", "cusparse", "nvrtc", "nvjitlink", "nvtoolsext",
                   "nvtx", "cupti", "nccl", "nvjpeg", "npp"})
        if (bare.starts_with(p)) return Family::toolkit;
    return Family::none;
}

std::string version_from_file_name(std::string_view n, bool full_only) {
    auto digits_and_dots = [](std::string_view s) {
        return !s.empty() && s.front() != '.' && s.back() != '.' && s.find("..") == std::string_view::npos &&
               s.find_first_not_of("0123456789.") == std::string_view::npos;
    };
    if (auto so = n.rfind(".so."); so != std::string_view::npos) {
        auto v = n.substr(so + 4);
        if (!digits_and_dots(v)) return "";
        if (v.find('.') != std::string_view::npos || !full_only) return std::string(v);
        return "";
    }
    if (full_only || n.size() < 8 || !str::iequals_ascii(n.substr(n.size() - 4), ".dll")) return "";
    auto stem = n.substr(0, n.size() - 4);
    auto at = stem.rfind("64_");
    if (at == std::string_view::npos) return "";
    auto v = stem.substr(at + 3);
    if (!str::is_digits(v)) return "";
    // cudart64_110.dll is 11.0; cudart64_12.dll and cudnn64_8.dll carry the major alone.
    if (v.size() == 3) return std::string(v.substr(0, 2)) + "." + std::string(v.substr(2));
    return std::string(v);
}

int cuda_major_of_dependency(std::string_view needed) {
    for (std::string_view lib : {"libcublasLt.so.", "libcublas.so.", "libcudart.so.", "libnvrtc.so."}) {
        if (!needed.starts_with(lib)) continue;
        auto rest = needed.substr(lib.size());
        int major = 0;
        auto digits = rest.substr(0, rest.find('.'));
        if (rest.find_first_not_of("0123456789.") == std::string_view::npos && str::parse_int(digits, major)) return major;
    }
    return 0;
}

bool is_cudart(std::string_view name, bool windows) {
    if (windows) return windows_dll_digits(name, windows_cudart).has_value();
    return is_linux_lib(name, linux_cudart) && name.size() > linux_cudart.size();
}

std::vector<fs::path> toolkit_lib_dirs(const fs::path& root) {
    return {root / "lib64", root / "targets" / "x86_64-linux" / "lib", root / "lib"};
}

std::vector<fs::path> toolkit_dll_dirs(const fs::path& root) { return {root / "bin" / "x64", root / "bin"}; }

std::vector<fs::path> cudnn_lib_dirs(const fs::path& root) {
    return {root / "bin" / "x64", root / "bin", root / "lib64", root / "lib", root / "lib" / "x86_64-linux-gnu"};
}

std::vector<fs::path> cudnn_installer_dll_dirs(const fs::path& root, const std::string& variant) {
    auto v = fsx::from_utf8(variant);
    return {root / "bin" / v / "x64", root / "bin" / v};
}

bool needs_zlibwapi(const Version& cudnn) { return cudnn.major() == 8 && cudnn.minor() >= 3; }

const std::vector<std::string>& cudnn_version_headers() {
    static const std::vector<std::string> headers = {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h",
                                                     "cudnn.h"};
    return headers;
}

bool is_library_file(std::string_view name) {
    const auto n = str::to_lower_ascii(name);
    return n.ends_with(".so") || n.find(".so.") != std::string::npos || n.ends_with(".dll");
}

}  // namespace cudaenv::cudalibs
