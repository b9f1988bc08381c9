#include "check/doctor_clients.hpp"

#include <filesystem>

#include "core/cudalibs.hpp"
#include "core/frameworks.hpp"
#include "core/host_compiler.hpp"
#include "core/wsl.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/fs.hpp"
#include "util/json_text.hpp"

namespace cudaenv::check {

namespace {

// Versions from the installed distributions' metadata: no framework is
// imported, so this stays fast even with TensorFlow installed. A torch wheel
// from PyPI has no build tag in its metadata ("2.11.0"), but torch/version.py
// has it ("2.11.0+cu130"): read as text, never imported.
const char* dist_probe = R"PY(
import json, re
try:
    from importlib import metadata
except ImportError:
    metadata = None
r = {}
for d in ["tensorflow", "tensorflow-gpu", "tensorflow-cpu", "tensorflow-intel", "torch", "onnxruntime-gpu",
          "cupy-cuda11x", "cupy-cuda12x", "jax-cuda12-plugin", "paddlepaddle-gpu"]:
    try:
        r[d] = metadata.version(d)
    except Exception:
        continue
    if d == "torch" and "+" not in r[d]:
        try:
            text = metadata.distribution(d).locate_file("torch/version.py").read_text()
            m = re.search(r"__version__\s*=\s*['\"]([^'\"]+)['\"]", text)
            if m and m.group(1).startswith(r[d] + "+"):
                r[d] = m.group(1)
        except Exception:
            pass
print("@@cudaenv-dists " + json.dumps(r))
)PY";

std::string active_words(const DoctorInput& in) {
    if (!in.active) return "the active pair is system (none)";
    return "the active pair is " + in.active->toolkit.version.prefix(2).str() +
           (in.active->cudnn ? "+" + in.active->cudnn->version.str() : "+none");
}

}  // namespace

std::vector<std::pair<std::string, std::string>> installed_frameworks(const std::string& path,
                                                                     std::chrono::milliseconds timeout) {
    std::vector<std::pair<std::string, std::string>> out;
    auto py = platform::find_python(path);
    if (!py) return out;
    auto r = platform::run_process({*py, "-c", dist_probe}, platform::environment(), timeout);
    auto pos = r.out.find("@@cudaenv-dists ");
    if (pos == std::string::npos) return out;
    auto line = r.out.substr(pos + 16);
    auto j = parse_json(line.substr(0, line.find('\n')));
    if (j.is_object())
        for (const auto& [dist, v] : j.items())
            if (v.is_string()) out.emplace_back(dist, v.get<std::string>());
    return out;
}

Finding framework_finding(const std::string& dist, const std::string& version, const DoctorInput& in) {
    Finding f{"framework", Status::ok, "", "", nlohmann::json::object()};
    std::string name = dist.starts_with("tensorflow") ? "tensorflow" : dist;
    f.details = {{"name", name}, {"distribution", dist}, {"version", version}};
    static const auto rows = framework_builds();
    const std::string os = in.windows ? "windows" : "linux";
    const FrameworkBuild* build = nullptr;
    std::string error;
    try {
        build = &framework_build_for(rows, parse_framework_request(name + "==" + version), os);
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (!build) {
        f.status = Status::warn;
        f.summary = name + " " + version + ": " + error;
        return f;
    }
    f.details["expects"] = build->needs();
    f.details["loads"] = build->loads;
    f.details["source"] = build->source;
    const std::string head = name + " " + version;
    if (build->loads == "wheels" || build->loads == "torch-lib") {
        f.summary = head + " bundles " + build->needs() + " (" +
                    (build->loads == "wheels" ? "nvidia-* wheels" : "torch\\lib") +
                    "); the active pair does not change what it loads";
        return f;
    }
    f.summary = head + " expects " + build->needs() + "; " + active_words(in);
    if (!in.active) {
        f.status = Status::warn;
        f.advice = "Pin a pair for it: cudaenv local --for " + name + "==" + version;
        return f;
    }
    const auto& tk = in.active->toolkit.version;
    bool cuda_major = build->cuda && tk.major() == build->cuda->major();
    bool cuda_same = cuda_major && (build->cuda->parts().size() < 2 || tk.minor() == build->cuda->minor());
    bool dnn_major = !build->cudnn || (in.active->cudnn && in.active->cudnn->version.major() == build->cudnn->major());
    bool dnn_same = !build->cudnn || (dnn_major && (build->cudnn->parts().size() < 2 ||
                                                    in.active->cudnn->version.minor() == build->cudnn->minor()));
    if (cuda_same && dnn_same) {
        f.summary += " (matches)";
    } else if (cuda_major && dnn_major) {
        f.status = Status::warn;
        f.summary += " (same majors, other minors than it was tested with)";
        f.advice = "It loads the libraries it finds by name; for its tested pair: cudaenv local --for " + name + "==" + version;
    } else {
        f.status = Status::fail;
        f.summary += " (it will not find the libraries it was built for)";
        f.advice = "Switch to a pair it can load: cudaenv use --for " + name + "==" + version +
                   " (or pin it for the project: cudaenv local --for " + name + "==" + version + ")";
    }
    if (build->unconfirmed) f.details["unconfirmed"] = true;
    return f;
}

Finding host_compiler_finding(const Version& cuda, const std::string& spec, const EnvReader& env, bool windows) {
    Finding f{"host_compiler", Status::ok, "", "", nlohmann::json::object()};
    auto r = report_host_compiler(cuda, spec, env, windows);
    const auto mm = Version({cuda.major(), cuda.minor()}).str();
    f.details = {{"compiler", r.compiler}, {"from", r.from}, {"users_own", r.users_own}, {"found", r.found},
                 {"cuda", mm}, {"supported", nullptr}};
    std::string whose = r.from == "PATH" ? "" : " (" + r.from + ", " + (r.users_own ? "your own" : "set by cudaenv") + ")";
    if (!r.found) {
        f.status = windows ? Status::skip : Status::warn;
        f.summary = (r.from == "PATH" ? "no " + r.compiler + " on PATH" : r.from + "=" + r.compiler + " not found") +
                    ": nvcc has no host compiler to compile .cu files with";
        f.advice = windows ? "`cudaenv use " + spec + " --msvc` puts the cl.exe of a Visual Studio toolset CUDA " + mm +
                                 " accepts on PATH (docs/msvc.md), or pass -ccbin."
                           : "Install a C++ compiler CUDA " + mm + " accepts, or set NVCC_CCBIN to one.";
        return f;
    }
    if (!r.id) {
        f.status = Status::skip;
        f.summary = r.compiler + whose + ": its version could not be read";
        return f;
    }
    f.details["family"] = r.id->family;
    f.details["version"] = r.id->major;
    if (r.rule) {
        f.details["accepts"] = {{"gcc_max", r.rule->gcc_max}, {"clang_max", r.rule->clang_max}, {"msvc", r.rule->msvc}};
        f.details["source"] = r.rule->source;
        if (r.rule->unconfirmed) f.details["unconfirmed"] = true;
    }
    if (!r.rule) {
        f.status = Status::skip;
        f.summary = r.compiler + whose + " is " + compiler_words(*r.id) + "; no host-compiler row for CUDA " + mm;
        return f;
    }
    f.details["supported"] = !r.mismatch;
    if (!r.mismatch) {
        f.summary = r.compiler + whose + " is " + compiler_words(*r.id) + "; CUDA " + mm + "'s nvcc accepts it";
        return f;
    }
    f.status = Status::warn;
    // The mismatch already names the variable.
    f.summary = *r.mismatch + (r.from == "PATH" ? "" : r.users_own ? " (your own value)" : " (set by cudaenv)") +
                ": nvcc will refuse to compile";
    f.advice = r.fix;
    if (r.supported) f.details["suggested"] = r.supported->path;
    return f;
}

std::vector<Finding> client_findings(const DoctorInput& in) {
    std::vector<Finding> out;
    // The host compiler nvcc will use for the active pair.
    if (in.active && !in.active->toolkit.nvcc.empty())
        out.push_back(host_compiler_finding(in.active->toolkit.version, in.active_spec, in.env, in.windows));
    // Frameworks in the active Python.
    for (const auto& [dist, version] : installed_frameworks(in.env("PATH").value_or(""), in.python_timeout))
        out.push_back(framework_finding(dist, version, in));
    // WSL2.
    auto wsl = detect_wsl(in.env);
    if (wsl.wsl) {
        Finding f{"wsl", Status::ok, "", "", nlohmann::json::object()};
        const std::string lib = "/usr/lib/wsl/lib";
        std::error_code ec;
        const std::string libcuda(cudalibs::linux_driver);
        bool driver = std::filesystem::exists(std::filesystem::path(lib) / libcuda, ec) ||
                      std::filesystem::exists(std::filesystem::path(lib) / (libcuda + ".1"), ec);
        f.details = {{"evidence", wsl.evidence}, {"driver_dir", lib}, {"driver_found", driver}};
        f.summary = "WSL (" + wsl.evidence + "): the NVIDIA driver comes from Windows through " + lib +
                    (driver ? " (libcuda.so found)" : " (no libcuda.so there)") +
                    "; toolkits and cuDNN must be Linux builds";
        f.advice = "Inside WSL use a Linux toolkit and a Linux cuDNN (cudaenv install, or the Linux archives); "
                   "Windows ones under " + wsl.mount_root + "/<drive>/ are DLLs a Linux process cannot load. "
                   "Keep " + lib + " on the library path and do not install a Linux NVIDIA driver inside WSL.";
        if (!driver) f.status = Status::warn;
        for (const char* var : {"PATH", "LD_LIBRARY_PATH"})
            for (const auto& e : split_path_list(in.env(var).value_or(""), PathStyle::posix))
                if (on_windows_drive(fsx::from_utf8(e), wsl) &&
                    (e.find("CUDA") != std::string::npos || e.find("CUDNN") != std::string::npos)) {
                    f.status = Status::warn;
                    f.summary += "; " + std::string(var) + " holds the Windows folder " + e;
                }
        out.push_back(f);
    }
    return out;
}

}  // namespace cudaenv::check
