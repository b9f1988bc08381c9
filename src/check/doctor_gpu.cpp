#include "check/doctor_gpu.hpp"

#include "nvidia/forward_compat.hpp"
#include "gpu/inspect.hpp"
#include "gpu/wheel.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace {

Finding gpu_finding(const DoctorInput& in, const gpu::Machine& m, gpu::CodeCache& cache) {
    Finding f{"gpu", Status::skip, gpu::machine_line(m).substr(9), "", nlohmann::json::object()};
    f.details["machine"] = gpu::machine_json(m);
    if (!m.known() || !in.active) return f;
    std::optional<Version> cudnn;
    if (in.active->cudnn) cudnn = in.active->cudnn->version;
    // The one judgement (gpu/pair_code): the pair's GPU code and the driver.
    auto v = gpu::judge_pair(in.active->toolkit.version, cudnn, gpu::pair_libraries(*in.active, cache, gpu::Scan::read), m,
                             gpu::TableUse::compare, &cache, in.active->toolkit.root);
    f.summary += "; " + in.active_spec + ": " + v.line(m);
    f.details["runs"] = gpu::runs_name(v.runs);
    f.details["verdict"] = v.cell();
    const bool refused = !v.refusal(m).empty();
    f.status = refused ? Status::fail : v.runs == gpu::Runs::jit || v.cell() == "no?" ? Status::warn : Status::ok;
    if (refused)
        f.advice = "CUDA programs fail with \"no kernel image is available for execution on the device\" (or "
                   "CUDNN_STATUS_ARCH_MISMATCH): `cudaenv list` shows which installed pairs run here, `cudaenv install` "
                   "picks a release that does.";
    return f;
}

Finding forward_compat_finding(const DoctorInput& in, const gpu::Machine& m) {
    Finding f{"forward_compat", Status::skip, "", "", nlohmann::json::object()};
    f.details["errors"] = {{"803", std::string(nvidia::error_803) + ": " + nvidia::error_803_means},
                           {"804", std::string(nvidia::error_804) + ": " + nvidia::error_804_means}};
    if (m.driver.empty() && m.driver_cuda.empty()) {
        f.summary = "no NVIDIA driver found";
        return f;
    }
    if (!in.active) {
        f.summary = "no active pair";
        return f;
    }
    const auto& tk = in.active->toolkit;
    auto host = nvidia::judge_driver(m.driver, tk.version, in.windows, m.driver_cuda);
    auto choice = nvidia::decide_forward_compat(host, tk.version, gpu::compat_gpus(m),
                                                nvidia::find_compat_libs(nvidia::compat_dirs(tk.root, tk.version, in.windows)),
                                                in.windows);
    f.details["choice"] = nvidia::choice_name(choice.kind);
    if (choice.kind == nvidia::CompatChoice::Kind::use) f.details["compat_libraries"] = fsx::to_utf8(choice.libs.dir);
    f.summary = choice.why + (m.driver_override ? " (" + m.driver_source + ")" : "");
    switch (choice.kind) {
        case nvidia::CompatChoice::Kind::not_needed: f.status = Status::ok; break;
        case nvidia::CompatChoice::Kind::use:
            f.status = Status::warn;
            f.advice = "`cudaenv use` puts " + fsx::to_utf8(choice.libs.dir) + " first on LD_LIBRARY_PATH for this pair. If a "
                       "program fails with " + nvidia::error_803 + ", the compat libraries do not fit the kernel driver.";
            break;
        case nvidia::CompatChoice::Kind::refused:
            f.status = Status::fail;
            f.advice = "Update the NVIDIA driver" + (host.floor.empty() ? std::string() : " to " + host.floor + " or newer") +
                       (choice.error == 804 ? ": forward compatibility is no way out on this GPU." : ".");
            break;
        case nvidia::CompatChoice::Kind::unknown:
            // Too old a driver, and no GPU model known to try forward compatibility on (--gpu names none).
            f.status = host.fit == nvidia::DriverFit::too_old ? Status::fail : Status::skip;
            if (f.status == Status::fail)
                f.advice = "Update the NVIDIA driver" + (host.floor.empty() ? std::string() : " to " + host.floor + " or newer") +
                           "; forward compatibility works only on data-centre GPUs.";
            break;
    }
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
