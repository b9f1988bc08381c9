#include "check/doctor_windows.hpp"

#include <algorithm>

#include "core/cudalibs.hpp"
#include "core/msvc.hpp"
#include "platform/process.hpp"
#include "setup/python_hook.hpp"
#include "util/fs.hpp"
#include "util/pe.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace fs = std::filesystem;

namespace {

// The prefix of the shell's Python environment and how it was found.
std::optional<std::pair<fs::path, std::string>> python_prefix(const DoctorInput& in) {
    for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
        if (auto v = in.env(var); v && !v->empty()) return std::make_pair(fsx::from_utf8(*v), std::string(var));
    if (auto exe = platform::find_on_path("python.exe", in.env("PATH").value_or(""))) {
        auto dir = fsx::from_utf8(*exe).parent_path();
        // A venv's python.exe is in Scripts\; an installation's in its root.
        if (str::iequals_ascii(fsx::to_utf8(dir.filename()), "Scripts")) dir = dir.parent_path();
        return std::make_pair(dir, std::string("python.exe on PATH"));
    }
    return std::nullopt;
}

bool is_cuda_dll(const std::string& name) {
    auto fam = cudalibs::family_of(name);
    return fam == cudalibs::Family::toolkit || fam == cudalibs::Family::cudnn;
}

}  // namespace

std::vector<CudaExtension> cuda_extensions(const fs::path& site, int max_depth, size_t max_entries) {
    std::vector<CudaExtension> out;
    std::error_code ec;
    size_t seen = 0;
    for (fs::recursive_directory_iterator it(site, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end && seen < max_entries; it.increment(ec), ++seen) {
        if (it.depth() >= max_depth) it.disable_recursion_pending();
        const auto& p = it->path();
        if (!str::iequals_ascii(fsx::to_utf8(p.extension()), ".pyd") || !it->is_regular_file(ec)) continue;
        CudaExtension x{p, {}};
        for (const auto& dll : pe::imported_dlls(p))
            if (is_cuda_dll(dll) && !fsx::is_file(p.parent_path() / fsx::from_utf8(dll))) x.dlls.push_back(dll);
        if (!x.dlls.empty()) out.push_back(std::move(x));
    }
    return out;
}

Finding python_hook_finding(const DoctorInput& in) {
    Finding f{"python_dll_hook", Status::skip, "", "", nlohmann::json::object()};
    if (!in.windows) {
        f.summary = "only Windows Python 3.8+ needs the DLL hook (Linux Python uses LD_LIBRARY_PATH)";
        return f;
    }
    auto prefix = python_prefix(in);
    if (!prefix) {
        f.summary = "no Python environment: no VIRTUAL_ENV, no CONDA_PREFIX, no python.exe on PATH";
        return f;
    }
    const auto site = prefix->first / "Lib" / "site-packages";
    f.details["environment"] = fsx::to_utf8(prefix->first);
    f.details["from"] = prefix->second;
    f.details["site_packages"] = fsx::to_utf8(site);
    if (!fsx::is_dir(site)) {
        f.summary = fsx::to_utf8(prefix->first) + " (" + prefix->second + ") has no Lib\\site-packages";
        return f;
    }
    const bool hooked = fsx::is_file(site / python_hook_pth());
    f.details["hook"] = hooked;
    auto found = cuda_extensions(site);
    auto modules = nlohmann::json::array();
    for (const auto& x : found)
        modules.push_back({{"module", fsx::to_utf8(x.module)}, {"imports", x.dlls}});
    f.details["cuda_extensions"] = modules;
    if (hooked) {
        f.status = Status::ok;
        f.summary = "the DLL hook is in " + fsx::to_utf8(site) +
                    (found.empty() ? "" : " (" + std::to_string(found.size()) + " extension modules import CUDA DLLs)");
        return f;
    }
    if (found.empty()) {
        f.status = Status::ok;
        f.summary = "no extension module in " + fsx::to_utf8(site) + " imports a CUDA DLL from outside its own folder";
        return f;
    }
    const auto& first = found.front();
    std::error_code ec;
    auto shown = fs::relative(first.module, site, ec);
    f.status = Status::warn;
    f.summary = std::to_string(found.size()) + " extension module" + (found.size() == 1 ? "" : "s") + " in " +
                fsx::to_utf8(site) + (found.size() == 1 ? " imports" : " import") + " CUDA DLLs (" + fsx::to_utf8(ec ? first.module : shown) + ": " +
                str::join(first.dlls, ", ") + ") without the DLL hook: Python 3.8+ does not look for them on PATH";
    f.advice = "Run `cudaenv setup --python \"" + fsx::to_utf8(prefix->first) +
               "\"`: that Python then finds the DLLs of the pair `cudaenv use` activates (error 126 otherwise).";
    return f;
}

Finding msvc_finding(const DoctorInput& in, const InstalledToolsets& vs) {
    Finding f{"msvc", Status::skip, "", "", nlohmann::json::object()};
    if (!in.windows) {
        f.summary = "Visual Studio toolsets exist only on Windows (see host_compiler)";
        return f;
    }
    auto list = nlohmann::json::array();
    for (const auto& t : vs.toolsets)
        list.push_back({{"version", t.version}, {"msc_ver", t.msc_ver}, {"instance", t.instance}, {"product", t.product}});
    f.details["toolsets"] = list;
    f.details["vswhere"] = vs.vswhere;
    f.details["vswhere_found"] = vs.vswhere_found;
    const auto entered = in.env(msvc_var);
    if (entered) f.details["entered"] = *entered;
    if (!in.active) {
        f.summary = std::to_string(vs.toolsets.size()) + " Visual Studio toolset" + (vs.toolsets.size() == 1 ? "" : "s") +
                    " installed; no pair is active";
        return f;
    }
    const auto& cuda = in.active->toolkit.version;
    auto pick = pick_toolset(vs.toolsets, cuda);
    if (!pick) {
        f.status = vs.toolsets.empty() && !vs.vswhere_found ? Status::skip : Status::warn;
        f.summary = no_toolset_line(vs.toolsets, cuda);
        if (!vs.vswhere_found) f.summary += " (no " + vs.vswhere + ")";
        f.advice = "Install a toolset in that range with the Visual Studio Installer (Individual components: "
                   "\"MSVC ... build tools\"), then `cudaenv use " + in.active_spec + " --msvc`.";
        return f;
    }
    f.details["fitting"] = pick->version;
    f.status = Status::ok;
    f.summary = "newest toolset CUDA " + cuda.prefix(2).str() + "'s nvcc accepts: " + toolset_words(*pick);
    if (entered && *entered == pick->version) {
        f.summary += "; entered in this session";
    } else {
        f.summary += entered ? "; this session has " + *entered + " entered" : "; not entered in this session";
        f.advice = "`cudaenv use " + in.active_spec + " --msvc` enters it (and `deactivate` leaves it); msvc = \"auto\" "
                   "in config.toml makes that the default.";
    }
    return f;
}

}  // namespace cudaenv::check
