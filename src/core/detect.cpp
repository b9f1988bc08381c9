#include "core/detect.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/cudalibs.hpp"
#include "util/elf.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv {

namespace {

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
using layout::is_system_lib_dir;
using layout::list_names;
using layout::pip_dist_info;

// The first cudart64_<digits>.dll / cudnn64_<digits>.dll in `names`.
std::optional<std::string> find_dll(const std::vector<std::string>& names, std::string_view prefix) {
    for (const auto& n : names)
        if (cudalibs::windows_dll_digits(n, prefix)) return n;
    return std::nullopt;
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
    const auto& rec = layout::recognize_toolkit(dir);
    Toolkit tk;
    tk.root = dir;
    tk.layout = rec.layout;

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
    for (const auto& ld : rec.lib_dirs(dir)) {
        auto names = list_names(ld);
        if (std::none_of(names.begin(), names.end(), [](const std::string& n) { return is_linux_lib(n, cudalibs::linux_cudart); })) continue;
        has_runtime = true;
        if (!is_system_lib_dir(ld) && tk.lib_dirs.empty()) tk.lib_dirs.push_back(ld);
        for (const auto& n : names)
            if (lib_version_name.empty() && linux_lib_full_version(n, cudalibs::linux_cudart)) lib_version_name = n;
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
        for (const auto& h : rec.headers(dir)) {
            auto text = fsx::read_file(h, 4 << 20);
            if (!text) continue;
            if (auto v = cuda_version_from_header(*text)) {
                tk.version = *v;
                tk.version_source = fsx::to_utf8(h.filename());
                break;
            }
        }
    }
    if (tk.layout == layout::ToolkitLayout::pip) {
        if (auto pip = pip_dist_info(dir, "nvidia_cuda_runtime");
            pip && (tk.version.empty() || tk.version.matches(pip->first.prefix(2)))) {
            tk.version = pip->first;
            tk.version_source = "pip metadata";
        }
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
    return tk;
}

std::vector<fs::path> search_dirs(const Toolkit& tk) {
    const auto& rec = layout::recognizer(tk.layout);
    std::vector<fs::path> out = tk.lib_dirs;
    out.insert(out.end(), tk.bin_dirs.begin(), tk.bin_dirs.end());
    for (auto& d : rec.lib_dirs(tk.root)) out.push_back(std::move(d));
    for (auto& d : cudalibs::toolkit_dll_dirs(tk.root)) out.push_back(std::move(d));
    for (auto& d : rec.outside_dirs()) out.push_back(std::move(d));
    return out;
}

std::vector<fs::path> search_dirs(const Cudnn& c) {
    const auto& rec = layout::recognizer(c.layout);
    std::vector<fs::path> out = c.lib_dirs;
    out.insert(out.end(), c.bin_dirs.begin(), c.bin_dirs.end());
    for (auto& d : rec.lib_dirs(c.root, c.variant)) out.push_back(std::move(d));
    for (auto& d : rec.outside_dirs()) out.push_back(std::move(d));
    return out;
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
        for (const auto& name : cudalibs::cudnn_version_headers()) {
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
    for (const auto& name : list_names(lib_dir)) {
        if (cudalibs::family_of(name) != cudalibs::Family::cudnn) continue;
        for (const auto& need : elf::needed_libraries(lib_dir / fsx::from_utf8(name)))
            if (int v = cudalibs::cuda_major_of_dependency(need)) return v;
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
    const auto& rec = layout::recognize_cudnn(dir, variant);
    Cudnn c;
    c.root = dir;
    c.variant = variant;
    c.layout = rec.layout;
    CudnnFiles f;
    for (const auto& d : rec.lib_dirs(dir, variant)) scan_lib_dir(d, f);
    const auto includes = rec.include_dirs(dir, variant);
    if (c.layout == layout::CudnnLayout::installer) {
        if (auto vv = Version::parse(variant)) {
            c.cuda_major = vv->major();
            c.cuda_major_source = "installer folder";
        }
    }
    // A system cuDNN adopted as its library folder is the system's: /usr.
    if (c.layout == layout::CudnnLayout::system && is_system_lib_dir(dir)) c.root = "/usr";
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
    if (c.layout == layout::CudnnLayout::pip) {
        if (auto pip = pip_dist_info(dir, "nvidia_cudnn")) {
            if (c.version.empty() || pip->first.matches(c.version)) c.version = pip->first;
            c.cuda_major = pip->second;
            c.cuda_major_source = "pip metadata";
        }
    }
    if (c.version.empty() && !f.lib_version_name.empty()) {
        if (auto full = linux_lib_full_version(f.lib_version_name, cudalibs::linux_cudnn)) c.version = *full;
        else if (auto digits = cudalibs::windows_dll_digits(f.lib_version_name, cudalibs::windows_cudnn))
            c.version = *Version::parse(*digits);
        // The installer's folder (CUDNN\v9.4) says more than cudnn64_9.dll does.
        auto name = fsx::to_utf8(dir.filename());
        if (c.layout == layout::CudnnLayout::installer && name.size() > 1 && (name[0] == 'v' || name[0] == 'V'))
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
    if (c.cuda_major == 0 && c.layout == layout::CudnnLayout::system) {
        if (int major = cuda_major_from_dpkg("/var/lib/dpkg/info", c.version.major())) {
            c.cuda_major = major;
            c.cuda_major_source = "system package";
        }
    }
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
