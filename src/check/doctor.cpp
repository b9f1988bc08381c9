#include "check/doctor.hpp"
#include "check/doctor_clients.hpp"

#include "nvidia/compat.hpp"
#include "nvidia/driver_support.hpp"
#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "platform/nvidia_driver.hpp"
#include "platform/process.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::check {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> names_in(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(fsx::from_utf8(dir), ec), end; !ec && it != end; it.increment(ec))
        out.push_back(fsx::to_utf8(it->path().filename()));
    return out;
}

std::string unquote(std::string s) {
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
    return s;
}

// A folder's cuDNN: {"9", "libcudnn.so.9.14.0"} or nothing.
std::optional<std::string> cudnn_in(const std::string& dir, bool windows) {
    std::optional<std::string> best;
    for (const auto& n : names_in(dir)) {
        if (cudalibs::cudnn_major_of(n, windows)) {
            if (!best || n.size() > best->size()) best = n;  // the fully versioned name says most
        }
    }
    return best;
}

bool same_dir(const std::string& a, const std::string& b, PathStyle style) { return same_path_entry(a, b, style); }

Finding path_finding(const DoctorInput& in) {
    Finding f{"path", Status::ok, "", "", nlohmann::json::object()};
    auto path = in.env("PATH").value_or("");
    const char* nvcc = in.windows ? "nvcc.exe" : "nvcc";
    std::vector<std::string> hits;
    for (const auto& e : split_path_list(path, in.style)) {
        auto d = unquote(e);
        if (!d.empty() && fsx::is_file(fsx::from_utf8(d) / nvcc)) {
            bool dup = false;
            for (const auto& h : hits) dup = dup || same_dir(h, d, in.style);
            if (!dup) hits.push_back(d);
        }
    }
    f.details["nvcc_on_path"] = hits;
    if (hits.empty()) {
        f.summary = "no nvcc on PATH";
        if (in.active) {
            f.status = Status::warn;
            f.advice = "The active pair's bin folder is not on PATH: run `cudaenv use " + in.active_spec + "` in this shell.";
        }
        return f;
    }
    f.summary = std::to_string(hits.size()) + " CUDA toolkit" + (hits.size() > 1 ? "s" : "") + " on PATH; " +
                hits.front() + " wins";
    if (hits.size() > 1) {
        f.status = Status::warn;
        f.advice = "Several CUDA bin folders are on PATH and the first wins: let `cudaenv use` manage PATH and remove "
                   "the others from your profile or system settings.";
    }
    if (in.active) {
        bool ours = false;
        for (const auto& d : in.active->toolkit.bin_dirs) ours = ours || same_dir(fsx::to_utf8(d), hits.front(), in.style);
        if (!ours) {
            f.status = Status::warn;
            f.summary += " (not the active pair " + in.active_spec + ")";
            f.advice = "The nvcc that runs is not the active pair's: run `cudaenv use " + in.active_spec +
                       "` again, or remove " + hits.front() + " from PATH.";
        }
    }
    return f;
}

Finding cudnn_finding(const DoctorInput& in) {
    Finding f{"cudnn", Status::ok, "", "", nlohmann::json::object()};
    // Every place a bare-name load could find cuDNN, in the loader's order.
    struct Place {
        std::string dir, why, lib;
    };
    std::vector<Place> places;
    auto add = [&](const std::string& dir, const std::string& why) {
        if (dir.empty()) return;
        for (const auto& p : places)
            if (same_dir(p.dir, dir, in.style)) return;
        if (auto lib = cudnn_in(dir, in.windows)) places.push_back({dir, why, *lib});
    };
    if (in.windows) {
        // Default search: application folder, System32, Windows, current folder, then PATH.
        for (const auto& s : in.system_dirs) add(s, "System32");
        for (const auto& e : split_path_list(in.env("PATH").value_or(""), in.style)) add(unquote(e), "PATH");
        if (auto c = in.env("CONDA_PREFIX")) add(*c + "\\Library\\bin", "conda env");
    } else {
        for (const auto& e : split_path_list(in.env("LD_LIBRARY_PATH").value_or(""), in.style)) add(e, "LD_LIBRARY_PATH");
        if (auto c = in.env("CONDA_PREFIX")) add(*c + "/lib", "conda env");
        for (const auto& s : in.system_dirs) add(s, "system library folder");
    }
    auto list = nlohmann::json::array();
    for (const auto& p : places) list.push_back({{"folder", p.dir}, {"via", p.why}, {"library", p.lib}});
    f.details["search_order"] = list;
    if (places.empty()) {
        f.summary = "no cuDNN on the library search path";
        return f;
    }
    std::vector<std::string> active_dirs;
    if (in.active && in.active->cudnn) {
        for (const auto& d : search_dirs(*in.active->cudnn)) active_dirs.push_back(fsx::to_utf8(d));
    }
    const auto& first = places.front();
    bool first_is_active = false;
    for (const auto& d : active_dirs) first_is_active = first_is_active || same_dir(d, first.dir, in.style);
    f.summary = first.lib + " in " + first.dir + " (" + first.why + ") is found first";
    if (!active_dirs.empty() && !first_is_active) {
        f.status = Status::fail;
        f.summary += ": it shadows the active pair's cuDNN " + in.active->cudnn->version.str();
        f.advice = first.why == "System32"
                       ? "A cuDNN copied into System32 wins over every PATH entry: delete cudnn*.dll from " + first.dir + "."
                       : "Remove " + first.dir + " from " + first.why +
                             " (or deactivate that environment) so the active pair's cuDNN is used.";
    } else if (places.size() > 1) {
        f.status = Status::warn;
        f.summary += "; " + std::to_string(places.size() - 1) + " more cuDNN folder" + (places.size() > 2 ? "s" : "") + " behind it";
        f.advice = "Programs that load cuDNN by name get the first one; keep one cuDNN on the search path.";
    }
    return f;
}

Finding zlib_finding(const DoctorInput& in) {
    Finding f{"zlibwapi", Status::skip, "", "", nlohmann::json::object()};
    if (!in.windows) {
        f.summary = "only Windows cuDNN 8.3-8.9 needs zlibwapi.dll";
        return f;
    }
    if (!in.active || !in.active->cudnn) {
        f.summary = "no active cuDNN";
        return f;
    }
    const auto& v = in.active->cudnn->version;
    if (!cudalibs::needs_zlibwapi(v)) {
        f.summary = "cuDNN " + v.str() + " does not need zlibwapi.dll";
        return f;
    }
    std::vector<std::string> dirs;
    for (const auto& d : in.active->cudnn->bin_dirs) dirs.push_back(fsx::to_utf8(d));
    for (const auto& s : in.system_dirs) dirs.push_back(s);
    for (const auto& e : split_path_list(in.env("PATH").value_or(""), in.style)) dirs.push_back(unquote(e));
    for (const auto& d : dirs)
        if (!d.empty() && fsx::is_file(fsx::from_utf8(d) / fsx::from_utf8(cudalibs::zlibwapi_dll))) {
            f.status = Status::ok;
            f.summary = "zlibwapi.dll found in " + d;
            return f;
        }
    f.status = Status::fail;
    f.summary = "cuDNN " + v.str() + " needs zlibwapi.dll and none is next to it, in System32 or on PATH";
    f.advice = "Put zlibwapi.dll (64-bit, from zlib 1.2.x's dll_x64 build) into the cuDNN bin folder; a cuDNN "
               "installed with `cudaenv install` gets the one shipped beside cudaenv-install.exe.";
    return f;
}

Finding path_length_finding(const DoctorInput& in) {
    Finding f{"path_length", Status::ok, "", "", nlohmann::json::object()};
    auto n = in.env("PATH").value_or("").size();
    f.details["length"] = n;
    f.summary = "PATH is " + std::to_string(n) + " characters";
    if (in.windows && n > cmd_path_limit) {
        f.status = Status::fail;
        f.summary += ", over cmd.exe's limit of 8191";
        f.advice = "cmd.exe ignores a PATH this long: remove folders you no longer need from PATH.";
    } else if (!in.windows) {
        f.status = Status::skip;
        f.summary += " (the 8191 limit is cmd.exe's)";
    }
    return f;
}

Finding driver_finding(const DoctorInput& in) {
    Finding f{"driver", Status::ok, "", "", nlohmann::json::object()};
    f.details["driver_version"] = in.driver;
    f.details["driver_source"] = in.driver_source;
    const std::string why =
        "nvidia-smi's \"CUDA Version\" is the newest CUDA the driver supports, not the toolkit you use (nvcc --version and "
        "`cudaenv current` say that)";
    if (in.driver.empty() && in.driver_cuda.empty()) {
        f.status = Status::warn;
        f.summary = "no NVIDIA driver found (no NVML, no kernel module, no nvidia-smi)";
        f.advice = "Without a driver no CUDA program can use a GPU; `cudaenv check` still checks files and versions.";
        return f;
    }
    const auto up_to = in.driver_cuda.empty() ? nvidia::newest_cuda_for(in.driver, in.windows) : in.driver_cuda;
    f.details["driver_max_cuda"] = up_to;
    f.summary = "driver " + (in.driver.empty() ? "(version unknown)" : in.driver) + ", runs CUDA up to " +
                (up_to.empty() ? "unknown (older than every CUDA release in the table)" : up_to) +
                (in.driver_source.empty() ? "" : " (" + in.driver_source + ")");
    if (in.active) {
        const auto& tk = in.active->toolkit.version;
        auto j = nvidia::judge_driver(in.driver, tk, in.windows, in.driver_cuda);
        f.details["fit"] = nvidia::fit_name(j.fit);
        f.summary += "; active toolkit CUDA " + tk.prefix(2).str() + ": " + nvidia::fit_name(j.fit);
        switch (j.fit) {
            case nvidia::DriverFit::runs: break;
            case nvidia::DriverFit::minor_compat:
                f.status = Status::warn;
                f.advice = j.why + "; update the driver to be safe. " + why + ".";
                return f;
            case nvidia::DriverFit::too_old:
                f.status = Status::fail;
                f.advice = j.why + ": update the NVIDIA driver (or see forward_compat). " + why + ".";
                return f;
            case nvidia::DriverFit::unknown:
                f.status = Status::warn;
                f.advice = j.why + ". " + why + ".";
                return f;
        }
    }
    f.advice = why + ".";
    return f;
}

const char* python_probe = R"PY(
import json, sys, os, importlib.util
r = {"executable": sys.executable, "version": sys.version.split()[0]}
def has(name):
    try:
        return importlib.util.find_spec(name) is not None
    except Exception:
        return False
if has("torch"):
    try:
        import torch
        t = {"version": torch.__version__, "cuda": torch.version.cuda}
        try:
            t["cudnn"] = torch.backends.cudnn.version()
        except Exception as e:
            t["cudnn_error"] = str(e)
        libdir = os.path.join(os.path.dirname(torch.__file__), "lib")
        names = os.listdir(libdir) if os.path.isdir(libdir) else []
        t["bundled"] = any(n.lower().startswith(("libcudnn", "cudnn", "libcudart", "cudart")) for n in names) or has("nvidia.cudnn")
        r["torch"] = t
    except Exception as e:
        r["torch"] = {"error": str(e)}
if has("tensorflow"):
    try:
        import tensorflow as tf
        b = tf.sysconfig.get_build_info()
        r["tensorflow"] = {"version": tf.__version__, "cuda": b.get("cuda_version"), "cudnn": b.get("cudnn_version")}
    except Exception as e:
        r["tensorflow"] = {"error": str(e)}
print("@@cudaenv-python " + json.dumps(r))
)PY";

Finding python_finding(const DoctorInput& in) {
    Finding f{"python", Status::skip, "", "", nlohmann::json::object()};
    auto path = in.env("PATH").value_or("");
    auto py = platform::find_python(path);
    if (!py) {
        f.summary = "no python on PATH";
        return f;
    }
    auto r = platform::run_process({*py, "-c", python_probe}, platform::environment(), in.python_timeout);
    auto pos = r.out.find("@@cudaenv-python ");
    if (pos == std::string::npos) {
        f.status = Status::warn;
        f.summary = *py + " could not be asked about its frameworks" + (r.timed_out ? " (timed out)" : "");
        return f;
    }
    auto line = r.out.substr(pos + 17);
    line = line.substr(0, line.find('\n'));
    auto j = parse_json(line);
    if (j.is_discarded()) return f;
    f.details = j;
    f.status = Status::ok;
    std::vector<std::string> parts = {*py + " (Python " + j.value("version", "?") + ")"};
    std::vector<std::string> advice;
    std::optional<Version> tk;
    std::optional<Version> dnn;
    if (in.active) {
        tk = in.active->toolkit.version;
        if (in.active->cudnn) dnn = in.active->cudnn->version;
    }
    if (j.contains("torch") && j["torch"].is_object()) {
        const auto& t = j["torch"];
        if (t.contains("error")) {
            parts.push_back("torch fails to import: " + t["error"].get<std::string>());
            f.status = Status::warn;
        } else {
            std::string cuda = t.value("cuda", nlohmann::json()).is_string() ? t["cuda"].get<std::string>() : "";
            long long cudnn = t.contains("cudnn") && t["cudnn"].is_number() ? t["cudnn"].get<long long>() : 0;
            std::string s = "torch " + t.value("version", "?") + (cuda.empty() ? " (CPU build)" : " built with CUDA " + cuda);
            if (cudnn) s += ", cuDNN " + std::to_string(cudnn);
            parts.push_back(s);
            bool bundled = t.value("bundled", false);
            if (!cuda.empty() && tk) {
                auto tv = Version::parse(cuda);
                if (tv && tv->major() != tk->major()) {
                    f.status = Status::warn;
                    advice.push_back("torch was built with CUDA " + cuda + " but the active toolkit is " + tk->prefix(2).str() +
                                     ": building C++/CUDA extensions with nvcc (torch.utils.cpp_extension) needs the same "
                                     "CUDA major; `cudaenv use " + std::to_string(tv->major()) + "` for that.");
                } else if (tv && !(tv->prefix(2) == tk->prefix(2))) {
                    advice.push_back("torch's CUDA " + cuda + " and the active " + tk->prefix(2).str() +
                                     " differ in the minor version: extension builds work with a warning.");
                }
            }
            if (bundled)
                advice.push_back("torch brings its own CUDA runtime and cuDNN (wheel libraries), so running models does "
                                 "not use the active pair; it matters only when compiling extensions.");
        }
    }
    if (j.contains("tensorflow") && j["tensorflow"].is_object()) {
        const auto& t = j["tensorflow"];
        if (t.contains("error")) {
            parts.push_back("tensorflow fails to import: " + t["error"].get<std::string>());
            f.status = Status::warn;
        } else {
            auto cuda = t.value("cuda", nlohmann::json()).is_string() ? t["cuda"].get<std::string>() : std::string();
            auto cudnn = t.value("cudnn", nlohmann::json()).is_string() ? t["cudnn"].get<std::string>() : std::string();
            parts.push_back("tensorflow " + t.value("version", "?") +
                            (cuda.empty() ? " (no CUDA build)" : " built with CUDA " + cuda + ", cuDNN " + cudnn));
            // TensorFlow <= 2.10 on Windows loads cudart/cuDNN by name through PATH: the active pair matters.
            auto tv = Version::parse(cuda), dv = Version::parse(cudnn);
            if (tk && tv && tv->major() != tk->major()) {
                f.status = Status::warn;
                advice.push_back("tensorflow was built for CUDA " + cuda + " and loads the CUDA libraries it finds by "
                                 "name: activate a CUDA " + std::to_string(tv->major()) + " pair before running it.");
            }
            if (dnn && dv && dv->major() != dnn->major()) {
                f.status = Status::warn;
                advice.push_back("tensorflow wants cuDNN " + cudnn + ", the active pair has " + dnn->str() + ".");
            }
        }
    }
    f.summary = str::join(parts, "; ");
    f.advice = str::join(advice, " ");
    return f;
}

}  // namespace

std::vector<Finding> run_doctor(const DoctorInput& in) {
    std::vector<Finding> out;
    Finding active{"active", Status::ok, "", "", nlohmann::json::object()};
    if (!in.active_error.empty()) {
        active.status = Status::fail;
        active.summary = "the active pair " + in.active_spec + " cannot be read: " + in.active_error;
        active.advice = "Run `cudaenv list` and pick an installed pair.";
    } else if (in.active) {
        active.summary = in.active_spec + " (CUDA " + in.active->toolkit.version.str() +
                         (in.active->cudnn ? ", cuDNN " + in.active->cudnn->version.str() : ", no cuDNN") + ")";
        if (in.active->cudnn) {
            bool unconfirmed = false;
            auto c = nvidia::Compat::get().pair_conflict(in.active->toolkit.version, in.active->cudnn->version, &unconfirmed);
            if (!c.empty()) {
                active.status = unconfirmed ? Status::warn : Status::fail;
                active.summary += "; " + c;
                active.advice = "Pick a cuDNN whose support matrix lists this CUDA version.";
            }
        }
    } else {
        active.summary = "system (no pair active)";
        active.status = Status::skip;
    }
    out.push_back(active);
    out.push_back(path_finding(in));
    out.push_back(cudnn_finding(in));
    out.push_back(zlib_finding(in));
    out.push_back(path_length_finding(in));
    out.push_back(driver_finding(in));
    out.push_back(python_finding(in));
    for (auto& f : client_findings(in)) out.push_back(std::move(f));  // frameworks, WSL (doctor_clients.cpp)
    return out;
}

}  // namespace cudaenv::check
