// Step 3 of `check`: what the loaded libraries say of their versions, against
// the folders' files and the support matrix.
#include "nvidia/compat.hpp"
#include "check/names.hpp"
#include "check/probe_steps.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

StepResult step_versions(Probe& p, int& runtime_version, int& driver_version) {
    StepResult r{"versions", Status::ok, "", "", nlohmann::json::object()};
    std::vector<std::string> notes, fails;
    std::string advice;
    const auto& tk = *p.tk;
    auto tk_mm = tk.version.prefix(2);

    int rt = 0, rt_err = p.cuda.runtime_get_version(&rt);
    int drv = 0, drv_err = p.cuda.driver_get_version(&drv);
    r.details["toolkit_version_files"] = tk.version.str();
    r.details["toolkit_version_source"] = tk.version_source;
    r.details["cudaRuntimeGetVersion"] = {{"status", cuda_error_name(rt_err)}, {"value", rt}};
    r.details["cudaDriverGetVersion"] = {{"status", cuda_error_name(drv_err)}, {"value", drv}};
    driver_version = drv_err == 0 ? drv : 0;
    if (rt_err != 0) {
        notes.push_back("cudaRuntimeGetVersion failed with " + std::to_string(rt_err) + " (" + cuda_error_name(rt_err) +
                        "), so the runtime version comes from the files: " + tk.version.str());
        runtime_version = tk.version.major() * 1000 + tk.version.minor() * 10;
    } else {
        runtime_version = rt;
        auto rt_v = Version({rt / 1000, rt % 1000 / 10});
        if (!(rt_v == tk_mm)) {
            fails.push_back("the CUDA runtime library reports " + rt_v.str() + " but the toolkit's files say " + tk_mm.str());
            advice = "The folder holds a CUDA runtime of another version: reinstall the toolkit, or remove the stray libcudart.";
        } else {
            notes.push_back("runtime " + rt_v.str());
        }
    }
    if (p.dnn && p.cudnn_ok) {
        const auto& c = *p.dnn;
        long long v = static_cast<long long>(p.cudnn.get_version());
        long long cv = static_cast<long long>(p.cudnn.get_cudart_version());
        auto d8 = decode_cudnn_v8(v), d9 = decode_cudnn_v9(v), d = decode_cudnn(v);
        Version lib_v({d.major, d.minor, d.patch});
        r.details["cudnnGetVersion"] = {
            {"value", v},
            {"as_cudnn8", std::to_string(d8.major) + "." + std::to_string(d8.minor) + "." + std::to_string(d8.patch)},
            {"as_cudnn9", std::to_string(d9.major) + "." + std::to_string(d9.minor) + "." + std::to_string(d9.patch)},
            {"decoded", lib_v.str()}};
        r.details["cudnn_version_files"] = c.version.str();
        r.details["cudnnGetCudartVersion"] = cv;
        if (!lib_v.matches(c.version.prefix(3)) && !c.version.prefix(3).matches(lib_v)) {
            fails.push_back("libcudnn reports " + lib_v.str() + " but the headers/files say " + c.version.str());
            if (advice.empty())
                advice = "cuDNN libraries and headers of different releases are mixed in this folder: unpack one release cleanly.";
        } else {
            notes.push_back("cuDNN " + lib_v.str());
        }
        int dnn_cuda_major = static_cast<int>(cv / 1000);
        if (cv > 0 && dnn_cuda_major != tk.version.major()) {
            fails.push_back("cuDNN " + c.version.str() + " was built for CUDA " + cuda_int_version(static_cast<int>(cv)) +
                            ", the toolkit is CUDA " + tk_mm.str());
            if (advice.empty())
                advice = "Use the cuDNN build for CUDA " + std::to_string(tk.version.major()) + " (the _cuda" +
                         std::to_string(tk.version.major()) + " archive) with this toolkit.";
        } else if (cv > 0) {
            notes.push_back("built with CUDA " + cuda_int_version(static_cast<int>(cv)));
        }
        bool unconfirmed = false;
        auto conflict = nvidia::Compat::get().pair_conflict(tk.version, c.version, &unconfirmed);
        r.details["support_matrix"] = conflict.empty() ? nlohmann::json("fits") : nlohmann::json(conflict);
        if (!conflict.empty()) {
            if (unconfirmed) {
                notes.push_back(conflict);
                if (r.status == Status::ok) r.status = Status::warn;
            } else {
                fails.push_back(conflict);
                if (advice.empty()) advice = "Pick a cuDNN whose support matrix lists this CUDA version.";
            }
        }
    }
    if (!fails.empty()) {
        r.status = Status::fail;
        r.summary = str::join(fails, "; ");
        r.advice = advice;
    } else {
        if (rt_err != 0 && r.status == Status::ok) r.status = Status::warn;
        r.summary = str::join(notes, "; ");
        if (rt_err != 0) r.advice = cuda_error_advice(rt_err);
    }
    return r;
}

}  // namespace cudaenv::check
