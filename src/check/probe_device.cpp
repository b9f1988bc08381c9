// Step 4 of `check`: the driver, the GPU, and whether the pair supports it.
#include "nvidia/compat.hpp"
#include "nvidia/driver_support.hpp"
#include "check/names.hpp"
#include "check/probe_steps.hpp"
#include "platform/nvidia_driver.hpp"
#include "platform/platform.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace {

// Whether the driver runs this toolkit's CUDA (nvidia/driver_support decides);
// a "fail" result when it does not.
bool driver_runs(Probe& p, StepResult& r, int runtime_version, int driver_cuda, std::vector<std::string>& notes) {
    const auto& tk = *p.tk;
    auto sysdrv = platform::kernel_driver_version();
    r.details["driver_version"] = sysdrv ? nlohmann::json(*sysdrv) : nlohmann::json(nullptr);
    r.details["driver_cuda"] = driver_cuda ? nlohmann::json(cuda_int_version(driver_cuda)) : nlohmann::json(nullptr);
    // The toolkit's release, or the runtime's when the folder does not say (12.6.3 needs more than 12.6.0).
    const Version cuda = tk.version.parts().size() >= 2 ? tk.version : Version::parse(cuda_int_version(runtime_version)).value_or(tk.version);
    if (driver_cuda == 0) {
        auto j = nvidia::judge_driver("", cuda, platform::is_windows);
        r.status = Status::fail;
        r.summary = "no NVIDIA driver on this machine (cudaDriverGetVersion = 0): libraries and versions were checked, "
                    "the GPU steps were not run";
        // The release's own minimum: a driver installed for it should run all of it.
        const auto& need = j.needs.empty() ? j.floor : j.needs;
        r.advice = "Install the NVIDIA driver" +
                   (need.empty() ? std::string() : " (" + need + " or newer for CUDA " + cuda.prefix(2).str() + ")") +
                   " to run the convolution; without a GPU only steps 1-3 can be checked.";
        return false;
    }
    auto j = nvidia::judge_driver(sysdrv.value_or(""), cuda, platform::is_windows, cuda_int_version(driver_cuda));
    r.details["driver_fit"] = nvidia::fit_name(j.fit);
    switch (j.fit) {
        case nvidia::DriverFit::runs:
        case nvidia::DriverFit::unknown:
            notes.push_back(j.why);
            return true;
        case nvidia::DriverFit::minor_compat:
            r.status = Status::warn;
            notes.push_back(j.why);
            r.advice = "Update the NVIDIA driver to run every CUDA " + cuda.prefix(2).str() + " feature.";
            return true;
        case nvidia::DriverFit::too_old:
            break;
    }
    r.status = Status::fail;
    r.summary = j.why + " (cudaErrorInsufficientDriver)";
    r.advice = "Update the NVIDIA driver (nvidia-smi's \"CUDA Version\" is the newest CUDA the driver supports), "
               "or use an older toolkit.";
    return false;
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
    if (p.context.valid()) p.context.wait();  // started while the libraries loaded (step 2)
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
    p.sm_count = sms;
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
    const auto& compat = nvidia::Compat::get();
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
