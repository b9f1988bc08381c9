#include "core/detect.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "util/elf.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv {

namespace {

// File names in a folder (not recursive); empty when it cannot be read.
std::vector<std::string> list_names(const fs::path& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        out.push_back(fsx::to_utf8(it->path().filename()));
    return out;
}

std::optional<std::string> find_name(const std::vector<std::string>& names, const std::regex& re,
                                     std::smatch* m = nullptr) {
    for (const auto& n : names) {
        std::smatch local;
        if (std::regex_match(n, local, re)) {
            if (m) *m = local;
            return n;
        }
    }
    return std::nullopt;
}

// The number in `#define <name> <digits>` (what the regex
// #[ \t]*define[ \t]+<name>[ \t]+([0-9]+) finds), by a plain scan: a regex
// built per call was most of a tool shim call's work for a pair with cuDNN.
std::optional<int> define_value(const std::string& text, const std::string& name) {
    auto blank = [](char c) { return c == ' ' || c == '\t'; };
    for (size_t pos = text.find(name); pos != std::string::npos; pos = text.find(name, pos + 1)) {
        size_t b = pos;  // back over "<blanks>define<blanks>#"
        if (b == 0 || !blank(text[b - 1])) continue;
        while (b > 0 && blank(text[b - 1])) --b;
        if (b < 6 || text.compare(b - 6, 6, "define") != 0) continue;
        b -= 6;
        while (b > 0 && blank(text[b - 1])) --b;
        if (b == 0 || text[b - 1] != '#') continue;
        size_t a = pos + name.size();  // forward over "<blanks><digits>"
        if (a >= text.size() || !blank(text[a])) continue;
        while (a < text.size() && blank(text[a])) ++a;
        size_t d = a;
        while (d < text.size() && text[d] >= '0' && text[d] <= '9') ++d;
        int v = 0;
        if (d > a && str::parse_int(std::string_view(text).substr(a, d - a), v)) return v;
        if (d > a) return std::nullopt;
    }
    return std::nullopt;
}

// Library names are the module's (core/cudalibs.hpp); plain string tests,
// because every tool shim call detects its pair.
using cudalibs::is_linux_lib;
using cudalibs::linux_lib_full_version;

// The first cudart64_<digits>.dll / cudnn64_<digits>.dll in `names`.
std::optional<std::string> find_dll(const std::vector<std::string>& names, std::string_view prefix) {
    for (const auto& n : names)
        if (cudalibs::windows_dll_digits(n, prefix)) return n;
    return std::nullopt;
}

bool is_system_lib_dir(const fs::path& p) {
    // Normalized once: this runs for every library folder of every detection.
    static const std::vector<fs::path> system = [] {
        std::vector<fs::path> out;
        for (const auto& s : platform::system_library_dirs()) out.push_back(fsx::absolute_normal(s));
        return out;
    }();
    const auto n = fsx::absolute_normal(p);
    return std::find(system.begin(), system.end(), n) != system.end();
}

// pip wheels: site-packages/nvidia/<pkg> with site-packages/<dist>-<ver>.dist-info beside.
// Returns {version, cuda major} from the first dist-info whose name starts with `prefix`.
std::optional<std::pair<Version, int>> pip_dist_info(const fs::path& pkg_root, const std::string& prefix) {
    auto site = pkg_root.parent_path().parent_path();
    if (fsx::to_utf8(pkg_root.parent_path().filename()) != "nvidia") return std::nullopt;
    std::regex re(prefix + "_cu([0-9]+)-([0-9.]+)\\.dist-info", std::regex::icase);
    std::smatch m;
    auto names = list_names(site);
    if (!find_name(names, re, &m)) return std::nullopt;
    auto v = Version::parse(str::trim(m[2].str()));
    int major = 0;
    str::parse_int(m[1].str(), major);
    if (!v) return std::nullopt;
    return std::make_pair(*v, major);
}

}  // namespace

std::optional<Version> cudnn_version_from_header(const std::string& text) {
    auto major = define_value(text, "CUDNN_MAJOR");
    auto minor = define_value(text, "CUDNN_MINOR");
    auto patch = define_value(text, "CUDNN_PATCHLEVEL");
    if (!major || !minor || !patch) return std::nullopt;
    return Version({*major, *minor, *patch});
}

std::optional<Version> cuda_version_from_version_json(const std::string& text) {
    auto j = parse_json(text);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    auto cuda = j.find("cuda");
    if (cuda == j.end() || !cuda->is_object()) return std::nullopt;
    auto ver = cuda->find("version");
    if (ver == cuda->end() || !ver->is_string()) return std::nullopt;
    auto v = Version::parse(ver->get<std::string>());
    if (!v) return std::nullopt;
    // Linux installs may write a build date as the third field ("11.8.20220929").
    if (v->parts().size() >= 3 && v->parts()[2] > 100000) return v->prefix(2);
    return v;
}

std::optional<Version> cuda_version_from_header(const std::string& text) {
    auto v = define_value(text, "CUDART_VERSION");
    if (!v) v = define_value(text, "CUDA_VERSION");
    if (!v || *v < 1000) return std::nullopt;
    return Version({*v / 1000, (*v % 1000) / 10});
}

// The N of "..._cudaN-archive..." (the last such part), 0 if none. A plain
// scan: compiling the equivalent std::regex was a quarter of a tool shim
// call's own work for an archive-layout cuDNN.
int cuda_major_from_archive_name(const std::string& name) {
    int v = 0;
    for (size_t at = name.find("_cuda"); at != std::string::npos; at = name.find("_cuda", at + 1)) {
        size_t d = at + 5, e = d;
        while (e < name.size() && name[e] >= '0' && name[e] <= '9') ++e;
        int n = 0;
        if (e > d && name.compare(e, 8, "-archive") == 0 && str::parse_int(name.substr(d, e - d), n)) v = n;
    }
    return v;
}

std::optional<Toolkit> detect_toolkit(const fs::path& dir_in) {
    auto dir = fsx::absolute_normal(dir_in);
    if (!fsx::is_dir(dir)) return std::nullopt;
    Toolkit tk;
    tk.root = dir;


    for (auto name : {"nvcc", "nvcc.exe"})
        if (tk.nvcc.empty() && fsx::is_file(dir / "bin" / name)) tk.nvcc = dir / "bin" / name;
    bool has_nvcc = !tk.nvcc.empty();
    bool has_runtime = false;
    std::string lib_version_name;

    // Windows: DLLs in bin (CUDA <= 12) or bin\x64 (CUDA 13).
    for (const auto& sub : cudalibs::toolkit_dll_dirs(dir)) {
        auto names = list_names(sub);
        if (auto n = find_dll(names, cudalibs::windows_cudart)) {
            tk.windows = true;
            has_runtime = true;
            if (lib_version_name.empty()) lib_version_name = *n;
        }
    }
    // Linux library folders, most specific first.
    bool debian = fsx::to_utf8(dir.filename()) == "nvidia-cuda-toolkit";
    std::vector<fs::path> lib_candidates = cudalibs::toolkit_lib_dirs(dir);
    lib_candidates.push_back(dir);
    if (debian) lib_candidates.insert(lib_candidates.begin(), platform::system_library_dirs().front());
    for (const auto& ld : lib_candidates) {
        auto names = list_names(ld);
        if (std::none_of(names.begin(), names.end(), [](const std::string& n) { return is_linux_lib(n, cudalibs::linux_cudart); })) continue;
        has_runtime = true;
        if (!is_system_lib_dir(ld) && tk.lib_dirs.empty()) tk.lib_dirs.push_back(ld);
        for (const auto& n : names)
            if (lib_version_name.empty() && linux_lib_full_version(n, cudalibs::linux_cudart)) lib_version_name = n;
        if (ld == dir) tk.layout = "runtime-only";
    }
    if (!has_nvcc && !has_runtime) return std::nullopt;

    // Tools and (Windows) DLL folders that belong on PATH.
    if (fsx::is_dir(dir / "bin" / "x64") && tk.windows) tk.bin_dirs.push_back(dir / "bin" / "x64");
    if (fsx::is_dir(dir / "bin")) tk.bin_dirs.push_back(dir / "bin");

    // Version: version.json, then headers, then pip metadata, then library names.
    if (auto text = fsx::read_file(dir / "version.json", 1 << 20)) {
        if (auto v = cuda_version_from_version_json(*text)) {
            tk.version = *v;
            tk.version_source = "version.json";
        }
    }
    if (tk.version.empty()) {
        std::vector<fs::path> headers = {dir / "include" / "cuda_runtime_api.h",
                                         dir / "targets" / "x86_64-linux" / "include" / "cuda_runtime_api.h",
                                         dir / "include" / "cuda.h"};
        if (debian) headers.push_back("/usr/include/cuda_runtime_api.h");
        for (const auto& h : headers) {
            auto text = fsx::read_file(h, 4 << 20);
            if (!text) continue;
            if (auto v = cuda_version_from_header(*text)) {
                tk.version = *v;
                tk.version_source = fsx::to_utf8(h.filename());
                break;
            }
        }
    }
    if (auto pip = pip_dist_info(dir, "nvidia_cuda_runtime")) {
        if (tk.version.empty() || tk.version.matches(pip->first.prefix(2))) {
            tk.version = pip->first;
            tk.version_source = "pip metadata";
        }
        tk.layout = "pip";
    }
    if (tk.version.empty() && !lib_version_name.empty()) {
        if (auto full = linux_lib_full_version(lib_version_name, cudalibs::linux_cudart)) {
            tk.version = *full;
        } else if (auto digits = cudalibs::windows_dll_digits(lib_version_name, cudalibs::windows_cudart)) {
            // cudart64_110.dll is every 11.x; cudart64_12.dll every 12.x.
            tk.version = Version({cudalibs::cuda_major_of_cudart_digits(*digits)});
        }
        tk.version_source = lib_version_name;
    }
    if (tk.version.empty()) return std::nullopt;
    if (tk.layout.empty()) tk.layout = debian ? "debian" : "standard";
    return tk;
}

namespace {

struct CudnnFiles {
    std::vector<fs::path> lib_dirs, bin_dirs;
    std::string lib_version_name;
    bool windows = false;
};

void scan_lib_dir(const fs::path& d, CudnnFiles& f) {
    auto names = list_names(d);
    if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return is_linux_lib(n, cudalibs::linux_cudnn); })) {
        f.lib_dirs.push_back(d);
        for (const auto& n : names)
            if (linux_lib_full_version(n, cudalibs::linux_cudnn)) {
                f.lib_version_name = n;
                break;
            }
    }
    if (auto n = find_dll(names, cudalibs::windows_cudnn)) {
        f.bin_dirs.push_back(d);
        f.windows = true;
        if (f.lib_version_name.empty()) f.lib_version_name = *n;
    }
}

std::optional<Version> version_from_headers(const std::vector<fs::path>& include_dirs, fs::path& found_in) {
    for (const auto& inc : include_dirs)
        for (auto name : {"cudnn_version.h", "cudnn_version_v9.h", "cudnn_version_v8.h", "cudnn.h"}) {
            auto text = fsx::read_file(inc / name, 4 << 20);
            if (!text) continue;
            if (auto v = cudnn_version_from_header(*text)) {
                found_in = inc;
                return v;
            }
        }
    return std::nullopt;
}

// The CUDA major a Linux cuDNN links against (libcublasLt.so.12, libcudart.so.11, ...).
int cuda_major_from_elf(const fs::path& lib_dir) {
    static const std::regex re(R"(lib(cublasLt|cublas|cudart|nvrtc)\.so\.([0-9]+))");
    for (const auto& name : list_names(lib_dir)) {
        if (!name.starts_with("libcudnn")) continue;
        for (const auto& need : elf::needed_libraries(lib_dir / fsx::from_utf8(name))) {
            std::smatch m;
            int v = 0;
            if (std::regex_match(need, m, re) && str::parse_int(m[2].str(), v)) return v;
        }
    }
    return 0;
}

}  // namespace

int cuda_major_from_dpkg(const fs::path& info_dir, int cudnn_major) {
    // NVIDIA's Debian/Ubuntu packages name the CUDA major: libcudnn9-cuda-13.
    // cuDNN 9 loads cuBLAS at run time, so its libraries' DT_NEEDED cannot tell.
    const std::string prefix = "libcudnn" + std::to_string(cudnn_major) + "-cuda-";
    int found = 0;
    for (const auto& name : list_names(info_dir)) {
        if (!name.starts_with(prefix) || !name.ends_with(".list")) continue;
        auto rest = std::string_view(name).substr(prefix.size());
        auto digits = rest.substr(0, rest.find_first_not_of("0123456789"));
        int major = 0;
        if (!str::parse_int(digits, major)) continue;
        if (found && found != major) return 0;  // builds for two CUDA majors: cannot tell which one is here
        found = major;
    }
    return found;
}

std::optional<Cudnn> detect_cudnn(const fs::path& dir_in, const std::string& variant) {
    auto dir = fsx::absolute_normal(dir_in);
    if (!fsx::is_dir(dir)) return std::nullopt;
    Cudnn c;
    c.root = dir;
    CudnnFiles f;
    std::vector<fs::path> includes;

    if (!variant.empty()) {
        // Windows installer: bin\<cuda>\[x64\], include\<cuda>\, lib\<cuda>\x64\.
        c.variant = variant;
        c.layout = "installer";
        auto v = fsx::from_utf8(variant);
        for (const auto& d : cudalibs::cudnn_installer_dll_dirs(dir, variant)) scan_lib_dir(d, f);
        // Older installers (v9.1..v9.4) may keep one include\ for all subfolders.
        includes = {dir / "include" / v, dir / "include"};
        if (auto vv = Version::parse(variant)) {
            c.cuda_major = vv->major();
            c.cuda_major_source = "installer folder";
        }
    } else {
        bool flat_system = is_system_lib_dir(dir);
        for (const auto& d : cudalibs::cudnn_lib_dirs(dir)) scan_lib_dir(d, f);
        scan_lib_dir(dir, f);
        includes = {dir / "include", dir / "include" / "x86_64-linux-gnu"};
        if (flat_system || dir == fs::path("/usr")) {
            c.layout = "system";
            includes.push_back("/usr/include");
            includes.push_back("/usr/include/x86_64-linux-gnu");
            if (flat_system) c.root = "/usr";
        }
    }
    if (f.lib_dirs.empty() && f.bin_dirs.empty()) return std::nullopt;
    c.windows = f.windows;
    c.bin_dirs = f.bin_dirs;
    for (const auto& d : f.lib_dirs)
        if (!is_system_lib_dir(d)) c.lib_dirs.push_back(d);

    fs::path inc;
    if (auto v = version_from_headers(includes, inc)) {
        c.version = *v;
        c.include_dir = inc;
    }
    if (auto pip = pip_dist_info(dir, "nvidia_cudnn")) {
        if (c.version.empty() || pip->first.matches(c.version)) c.version = pip->first;
        c.cuda_major = pip->second;
        c.cuda_major_source = "pip metadata";
        c.layout = "pip";
    }
    if (c.version.empty() && !f.lib_version_name.empty()) {
        if (auto full = linux_lib_full_version(f.lib_version_name, cudalibs::linux_cudnn)) c.version = *full;
        else if (auto digits = cudalibs::windows_dll_digits(f.lib_version_name, cudalibs::windows_cudnn))
            c.version = *Version::parse(*digits);
        // The installer's folder (CUDNN\v9.4) says more than cudnn64_9.dll does.
        auto name = fsx::to_utf8(dir.filename());
        if (c.layout == "installer" && name.size() > 1 && (name[0] == 'v' || name[0] == 'V'))
            if (auto fv = Version::parse(name.substr(1)); fv && fv->major() == c.version.major()) c.version = *fv;
    }
    if (c.version.empty()) return std::nullopt;

    if (c.cuda_major == 0) {
        // The archive folder name (cudnn-...-8.9.7.29_cuda11-archive), also as the store names it.
        // The folder itself or its parent (an archive unpacked into a folder of its own).
        for (const auto& p : {dir, dir.parent_path()}) {
            if (int major = cuda_major_from_archive_name(fsx::to_utf8(p.filename()) + "-archive")) {
                c.cuda_major = major;
                c.cuda_major_source = "folder name";
                break;
            }
        }
    }
    if (c.cuda_major == 0)
        for (const auto& ld : f.lib_dirs)
            if (int major = cuda_major_from_elf(ld)) {
                c.cuda_major = major;
                c.cuda_major_source = "linked libraries";
                break;
            }
    if (c.cuda_major == 0 && c.layout == "system") {
        if (int major = cuda_major_from_dpkg("/var/lib/dpkg/info", c.version.major())) {
            c.cuda_major = major;
            c.cuda_major_source = "system package";
        }
    }
    if (c.layout.empty()) c.layout = fsx::is_dir(dir / "include") ? "archive" : "flat";
    return c;
}

std::vector<Cudnn> detect_cudnns(const fs::path& dir_in) {
    auto dir = fsx::absolute_normal(dir_in);
    std::vector<Cudnn> out;
    // Windows installer: bin\12.9\..., bin\13.0\...
    std::vector<std::string> variants;
    for (const auto& n : list_names(dir / "bin"))
        if (auto v = Version::parse(n); v && v->parts().size() == 2 && fsx::is_dir(dir / "bin" / n)) variants.push_back(n);
    // Directory order is arbitrary: list the builds by CUDA version.
    std::sort(variants.begin(), variants.end(),
              [](const std::string& a, const std::string& b) { return *Version::parse(a) < *Version::parse(b); });
    for (const auto& v : variants)
        if (auto c = detect_cudnn(dir, v)) out.push_back(*c);
    if (out.empty())
        if (auto c = detect_cudnn(dir)) out.push_back(*c);
    return out;
}

}  // namespace cudaenv
