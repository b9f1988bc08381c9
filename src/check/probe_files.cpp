// Step 1 of `check`: every library the pair needs, found in its folders.
#include <algorithm>

#include "check/probe_steps.hpp"
#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

std::string cudart_name(int cuda_major) { return cudalibs::cudart_name(cuda_major, platform::is_windows); }
std::vector<std::string> cudnn_names(int major) { return cudalibs::cudnn_names(major, platform::is_windows); }

namespace {

void add_dir(std::vector<fs::path>& dirs, const fs::path& d) {
    if (fsx::is_dir(d) && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
}

fs::path find_in(const std::vector<fs::path>& dirs, const std::string& name) {
    for (const auto& d : dirs)
        if (fsx::exists(d / fsx::from_utf8(name))) return d / fsx::from_utf8(name);
    return {};
}

// The first file in `dirs` that is toolkit library `lib` (its own major may
// differ from CUDA's, as libcufft.so.11 in CUDA 12).
fs::path find_toolkit_library(const std::vector<fs::path>& dirs, const std::string& lib, std::string& name) {
    for (const auto& d : dirs) {
        std::error_code ec;
        std::vector<std::string> names;
        for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
            names.push_back(fsx::to_utf8(it->path().filename()));
        std::sort(names.begin(), names.end());
        for (const auto& n : names)
            if (cudalibs::is_toolkit_library(n, lib, platform::is_windows)) {
                name = n;
                return d / fsx::from_utf8(n);
            }
    }
    return {};
}

}  // namespace

StepResult step_files(Probe& p) {
    StepResult r{"files", Status::ok, "", "", nlohmann::json::object()};
    const auto& tk = *p.tk;
    for (const auto& d : search_dirs(tk)) add_dir(p.tk_dirs, d);

    int cuda_major = tk.version.major();
    p.files.push_back({cudart_name(cuda_major), "cudart", true, find_in(p.tk_dirs, cudart_name(cuda_major))});
    // The toolkit's main libraries: reported, and required only from a full
    // toolkit (one with nvcc); runtime-only and pip layouts bring cudart alone.
    bool full = fsx::is_file(tk.root / "bin" / "nvcc") || fsx::is_file(tk.root / "bin" / "nvcc.exe");
    for (const auto& lib : cudalibs::toolkit_libraries()) {
        std::string name;
        auto path = find_toolkit_library(p.tk_dirs, lib, name);
        p.files.push_back({name.empty() ? lib : name, "toolkit", false, path});
    }
    if (p.dnn) {
        const auto& c = *p.dnn;
        for (const auto& d : search_dirs(c)) add_dir(p.dnn_dirs, d);
        for (const auto& n : cudnn_names(c.version.major())) p.files.push_back({n, "cudnn", true, find_in(p.dnn_dirs, n)});
    }

    std::vector<std::string> missing, found_dirs, missing_optional;
    auto list = nlohmann::json::array();
    for (const auto& f : p.files) {
        list.push_back({{"name", f.name}, {"group", f.group}, {"required", f.required},
                        {"path", f.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(fsx::to_utf8(f.path))},
                        {"folder", f.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(fsx::to_utf8(f.path.parent_path()))}});
        if (f.path.empty()) (f.required ? missing : missing_optional).push_back(f.name);
    }
    r.details["files"] = list;
    r.details["toolkit_dirs"] = nlohmann::json::array();
    for (const auto& d : p.tk_dirs) r.details["toolkit_dirs"].push_back(fsx::to_utf8(d));
    r.details["cudnn_dirs"] = nlohmann::json::array();
    for (const auto& d : p.dnn_dirs) r.details["cudnn_dirs"].push_back(fsx::to_utf8(d));

    size_t required = 0, present = 0;
    for (const auto& f : p.files)
        if (f.required) {
            ++required;
            present += !f.path.empty();
        }
    if (!missing.empty()) {
        r.status = Status::fail;
        r.summary = "missing: " + str::join(missing, ", ");
        bool dnn_missing = false;
        for (const auto& f : p.files) dnn_missing = dnn_missing || (f.group == "cudnn" && f.path.empty());
        r.advice = dnn_missing
                       ? "This cuDNN " + p.dnn->version.str() + " is incomplete: every one of its " +
                             std::to_string(cudnn_names(p.dnn->version.major()).size()) +
                             " libraries must sit in one folder; unpack the whole archive again (cudaenv install or add)."
                       : "The CUDA runtime library " + cudart_name(cuda_major) +
                             " is missing from the toolkit: reinstall CUDA " + p.tk->version.str() + ".";
        return r;
    }
    r.summary = std::to_string(present) + " of " + std::to_string(required) + " required libraries found";
    if (full && !missing_optional.empty()) {
        r.status = Status::warn;
        r.summary += "; the toolkit lacks " + str::join(missing_optional, ", ");
        r.advice = "This toolkit is incomplete: programs that use those libraries will fail to start.";
    }
    return r;
}

}  // namespace cudaenv::check
