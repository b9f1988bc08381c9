// Step 4 of `check`: the driver, the GPU, and whether the pair supports it.
#include "check/compat.hpp"
#include "check/driver.hpp"
#include "check/names.hpp"
#include "check/probe_steps.hpp"
#include "platform/nvidia_driver.hpp"
#include "platform/platform.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace {

// Whether the driver runs this toolkit's CUDA; a "fail" result when it does not.
bool driver_runs(Probe& p, StepResult& r, int runtime_version, int driver_cuda, std::vector<std::string>& notes) {
    const auto& tk = *p.tk;
    const auto& compat = Compat::get();
    auto sysdrv = platform::kernel_driver_version();
    r.details["driver_version"] = sysdrv ? nlohmann::json(*sysdrv) : nlohmann::json(nullptr);
    r.details["driver_cuda"] = driver_cuda ? nlohmann::json(cuda_int_version(driver_cuda)) : nlohmann::json(nullptr);
    const auto* fam = compat.cuda_family(tk.version.major());
    const auto* rel = compat.cuda_release(tk.version);
    std::string floor = fam ? fam->minor_compat_driver(platform::is_windows) : "";
    std::string ga = rel ? rel->min_driver(platform::is_windows) : "";
    if (driver_cuda == 0) {
        r.status = Status::fail;
        r.summary = "no NVIDIA driver on this machine (cudaDriverGetVersion = 0): libraries and versions were checked, "
                    "the GPU steps were not run";
        r.advice = "Install the NVIDIA driver" + (ga.empty() ? std::string() : " (" + ga + " or newer for CUDA " + tk.version.prefix(2).str() + ")") +
                   " to run the convolution; without a GPU only steps 1-3 can be checked.";
        return false;
    }
    std::string drv_text = "driver " + (sysdrv ? *sysdrv + " " : std::string()) + "supports CUDA " + cuda_int_version(driver_cuda);
    if (driver_cuda >= runtime_version) {
        notes.push_back(drv_text);
    } else if (driver_cuda / 1000 == runtime_version / 1000) {
        // Minor-version compatibility: any driver of the major's floor runs a newer minor.
        r.status = Status::warn;
        notes.push_back(drv_text + ", older than CUDA " + cuda_int_version(runtime_version) +
                        ": runs through minor-version compatibility (driver >= " + (floor.empty() ? "?" : floor) +
                        "), but PTX newer than the driver cannot be JIT-compiled");
        r.advice = "Update the NVIDIA driver to run every CUDA " + cuda_int_version(runtime_version) + " feature.";
    } else {
        r.status = Status::fail;
        r.summary = drv_text + ", older than this toolkit's CUDA " + cuda_int_version(runtime_version) +
                    (ga.empty() ? "" : " (needs driver >= " + ga + ")");
        r.advice = "Update the NVIDIA driver (nvidia-smi's \"CUDA Version\" is the newest CUDA the driver supports), "
                   "or use an older toolkit.";
        return false;
    }
    return true;
}

// Opens GPU 0 and its context, reading its compute capability into `p`; a
// "fail" result when the driver cannot.
bool open_device(Probe& p, StepResult& r, std::vector<std::string>& notes) {
    auto fail = [&](const std::string& summary, int error) {
        r.status = Status::fail;
        r.summary = summary;
        r.advice = cuda_error_advice(error);
        return false;
    };
    int count = 0, err = p.cuda.get_device_count(&count);
    r.details["cudaGetDeviceCount"] = {{"status", cuda_error_name(err)}, {"value", count}};
    if (err != 0) return fail("cudaGetDeviceCount failed: " + cuda_error_name(err), err);
    if (count == 0) return fail("the driver sees no GPU", 100);
    if (int e = p.cuda.set_device(0); e != 0) return fail("cudaSetDevice(0) failed: " + cuda_error_name(e), e);
    int mj = 0, mn = 0, sms = 0;
    int e1 = p.cuda.device_get_attribute(&mj, cuda_api::cudaDevAttrComputeCapabilityMajor, 0);
    int e2 = p.cuda.device_get_attribute(&mn, cuda_api::cudaDevAttrComputeCapabilityMinor, 0);
    p.cuda.device_get_attribute(&sms, cuda_api::cudaDevAttrMultiProcessorCount, 0);
    if (e1 || e2) return fail("cudaDeviceGetAttribute failed: " + cuda_error_name(e1 ? e1 : e2), e1 ? e1 : e2);
    p.cc_major = mj;
    p.cc_minor = mn;
    // cudaFree(nullptr) creates the context now (CUDA 11 would at the first
    // allocation), so that it is never inside the convolution's timed phase.
    if (int e = p.cuda.free(nullptr); e != 0) return fail("creating a CUDA context failed: " + cuda_error_name(e), e);
    Version cc({mj, mn});
    r.details["devices"] = count;
    r.details["compute_capability"] = cc.str();
    r.details["multiprocessors"] = sms;
    notes.push_back(std::to_string(count) + " GPU" + (count > 1 ? "s" : "") + ", compute capability " + cc.str());
    return true;
}

// What the support matrices say of this GPU: a confirmed row's refusal goes to
// `fails`, an unconfirmed one's to `notes` (and warns).
void judge_architecture(Probe& p, StepResult& r, std::vector<std::string>& notes, std::vector<std::string>& fails) {
    const auto& compat = Compat::get();
    const Version cc({p.cc_major, p.cc_minor});
    const auto* fam = compat.cuda_family(p.tk->version.major());
    if (fam && !fam->cc_min.empty() && cc < fam->cc_min) {
        std::string msg = "CUDA " + std::to_string(fam->major) + " supports compute capability " + fam->cc_min.str() +
                          " and newer, this GPU is " + cc.str();
        if (fam->cc_unconfirmed) notes.push_back(msg + " (unconfirmed)");
        else fails.push_back(msg);
    }
    if (!p.dnn) return;
    auto s = compat.cudnn(p.dnn->version);
    if (!s.row || !s.row->cc || s.row->cc->contains(cc)) return;
    std::string msg = "cuDNN " + p.dnn->version.str() + " supports compute capability " + s.row->cc->str() +
                      ", this GPU is " + cc.str();
    if (s.exact) {
        fails.push_back(msg);
    } else {
        notes.push_back(msg + " (judged from cuDNN " + s.row->versions.str() + "; unconfirmed)");
        if (r.status == Status::ok) r.status = Status::warn;
    }
}

}  // namespace

StepResult step_gpu(Probe& p, int runtime_version, int driver_cuda) {
    StepResult r{"gpu", Status::ok, "", "", nlohmann::json::object()};
    std::vector<std::string> notes, fails;
    if (!driver_runs(p, r, runtime_version, driver_cuda, notes) || !open_device(p, r, notes)) return r;
    judge_architecture(p, r, notes, fails);
    if (!fails.empty()) {
        r.status = Status::fail;
        r.summary = str::join(fails, "; ");
        r.advice = "This GPU is outside what the pair supports (CUDNN_STATUS_ARCH_MISMATCH at run time): use a "
                   "toolkit and cuDNN whose support matrix lists compute capability " +
                   Version({p.cc_major, p.cc_minor}).str() + ".";
        return r;
    }
    r.summary = str::join(notes, "; ");
    return r;
}

}  // namespace cudaenv::check
