#include "check/doctor_gpu.hpp"

#include "check/compat.hpp"
#include "gpu/inspect.hpp"
#include "gpu/wheel.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace {

constexpr const char* err_803 =
    "error 803 (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH): the cuda-compat libraries on the library path do not match the "
    "kernel driver (a container's or an old compat package on a newer driver): take them off LD_LIBRARY_PATH";
constexpr const char* err_804 =
    "error 804 (CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE): forward compatibility was tried on a GPU that does not "
    "support it (GeForce and most workstation GPUs): update the driver instead";

Finding gpu_finding(const DoctorInput& in, const gpu::Machine& m, gpu::CodeCache& cache) {
    Finding f{"gpu", Status::skip, gpu::machine_line(m).substr(9), "", nlohmann::json::object()};
    f.details["machine"] = gpu::machine_json(m);
    if (!m.known() || !in.active) return f;
    std::optional<Version> cudnn;
    if (in.active->cudnn) cudnn = in.active->cudnn->version;
    auto v = gpu::judge_pair(in.active->toolkit.version, cudnn, gpu::pair_libraries(*in.active, cache, gpu::Scan::read), m);
    f.summary += "; " + in.active_spec + ": " + v.line(m);
    f.details["runs"] = gpu::runs_name(v.runs);
    f.status = v.runs == gpu::Runs::no ? Status::fail : v.runs == gpu::Runs::jit ? Status::warn : Status::ok;
    if (v.runs == gpu::Runs::no)
        f.advice = "CUDA programs fail with \"no kernel image is available for execution on the device\" (or "
                   "CUDNN_STATUS_ARCH_MISMATCH): `cudaenv list` shows which installed pairs run here, `cudaenv install` "
                   "picks a release that does.";
    return f;
}

// The newest CUDA a driver version runs (the newest GA release whose minimum it meets).
std::string driver_max_cuda(const std::string& driver, bool windows) {
    Version best;
    for (const auto& r : Compat::get().cuda_releases()) {
        const auto& min = r.min_driver(windows);
        if (!min.empty() && compare_driver(driver, min) >= 0 && best < r.version) best = r.version;
    }
    return best.empty() ? "" : best.str();
}

Finding forward_compat_finding(const DoctorInput& in, const gpu::Machine& m) {
    Finding f{"forward_compat", Status::skip, "", "", nlohmann::json::object()};
    f.details["errors"] = {{"803", err_803}, {"804", err_804}};
    auto driver_cuda = !m.driver_cuda.empty() ? m.driver_cuda : m.driver.empty() ? "" : driver_max_cuda(m.driver, in.windows);
    if (!in.active || driver_cuda.empty()) {
        f.summary = m.driver.empty() ? "no NVIDIA driver found" : "no active pair";
        return f;
    }
    auto max = Version::parse(driver_cuda);
    auto tk = in.active->toolkit.version.prefix(2);
    f.summary = "driver " + m.driver + " runs CUDA up to " + driver_cuda + (m.driver_override ? " (" + m.driver_source + ")" : "");
    const auto* fam = Compat::get().cuda_family(tk.major());
    const std::string floor = fam ? fam->minor_compat_driver(in.windows) : "";
    if (!max || !(*max < tk) || (max->major() == tk.major() && !floor.empty() && compare_driver(m.driver, floor) >= 0)) {
        f.status = Status::ok;
        f.summary += ": CUDA " + tk.str() + " runs without forward compatibility";
        return f;
    }
    // The toolkit needs a newer driver: forward compatibility, where the GPU has it.
    std::vector<std::string> verdicts;
    bool any_supported = false, any_refused = false;
    for (const auto& g : m.gpus) {
        const auto* row = GpuArchs::get().forward_compat(g.name);
        if (!row) continue;
        (row->supported ? any_supported : any_refused) = true;
        verdicts.push_back(m.label(g) + (row->supported ? " supports" : " does not support") + " forward compatibility [" +
                           row->source + "]");
    }
    f.summary += ", older than the active CUDA " + tk.str();
    if (!verdicts.empty()) f.summary += "; " + str::join(verdicts, "; ");
    f.status = any_refused || !any_supported ? Status::fail : Status::warn;
    f.advice = any_supported && !any_refused
                   ? "Update the driver, or use NVIDIA's forward compatibility package cuda-compat-" +
                         std::to_string(tk.major()) + "-" + std::to_string(tk.minor()) +
                         " (its libcuda first on LD_LIBRARY_PATH). If it fails: " + err_803 + "."
                   : "Update the NVIDIA driver: forward compatibility is no way out here (" + std::string(err_804) + ").";
    return f;
}

Finding torch_finding(const DoctorInput& in, const gpu::Machine& m, gpu::CodeCache& cache) {
    Finding f{"torch_gpu", Status::skip, "", "", nlohmann::json::object()};
    auto path = in.env("PATH").value_or("");
    auto py = platform::find_python(path);
    if (!py || !m.known()) {
        f.summary = py ? "no GPU known" : "no python on PATH";
        return f;
    }
    auto w = gpu::scan_torch(*py, cache);
    if (!w) {
        f.summary = "no torch in " + *py;
        return f;
    }
    gpu::Runs worst = gpu::Runs::native;
    auto problem = gpu::wheel_problem(*w, m, &worst);
    f.status = worst == gpu::Runs::no ? Status::fail : worst == gpu::Runs::jit ? Status::warn : Status::ok;
    f.summary = problem.empty() ? "torch " + w->version + "'s own libraries run natively on every GPU here" : problem;
    if (worst == gpu::Runs::no)
        f.advice = "This torch build leaves this GPU out: install a torch wheel built for it (another +cuXYZ variant).";
    else if (worst == gpu::Runs::jit)
        // One library decides the row (the finding names it); torch's own kernels may well be native.
        f.advice = "The library named above reaches this GPU only through PTX JIT: its kernels are compiled at "
                   "their first launch; " + gpu::jit_cache_note() + ".";
    return f;
}

}  // namespace

std::vector<Finding> gpu_findings(const DoctorInput& in, const gpu::Machine& m, const std::filesystem::path& store_root) {
    gpu::CodeCache cache(store_root);
    return {gpu_finding(in, m, cache), forward_compat_finding(in, m), torch_finding(in, m, cache)};
}

}  // namespace cudaenv::check
