// cudaenv doctor [--json]: diagnose this machine's CUDA set-up as a whole.
#include <CLI/CLI.hpp>
#include <iostream>

#include "check/doctor.hpp"
#include "check/doctor_gpu.hpp"
#include "check/doctor_windows.hpp"
#include "check/pwsh_policy.hpp"
#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "commands/table.hpp"
#include "core/cmake_cache.hpp"
#include "platform/platform.hpp"
#include "store/msvc.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

// Build folders here configured for another toolkit than the active pair's (core/cmake_cache.hpp).
void add_stale_build_findings(std::vector<check::Finding>& findings, const fs::path& cwd, const fs::path& root) {
    for (const auto& s : stale_cmake_caches(cwd, root, native_path_style()))
        findings.push_back({"cmake", check::Status::warn, describe(s, cwd), stale_cache_fix(s, cwd),
                            {{"file", fsx::to_utf8(s.file)}, {"variable", s.variable}, {"value", s.value}}});
}

void run_doctor_cmd(Context& ctx, bool json, const gpu::Overrides& overrides) {
    check::DoctorInput in;
    in.env = ctx.env();
    in.windows = platform::is_windows;
    for (const auto& d : platform::system_library_dirs()) in.system_dirs.push_back(fsx::to_utf8(d));
    in.active_spec = "system";
    try {
        auto active = ctx.active();
        in.active = ctx.pair_for(active.spec, &in.active_spec);
    } catch (const Error& e) {
        in.active_error = e.what();
    }
    // The driver from the machine's record (asked once per boot, or --driver), not nvidia-smi again.
    const auto machine = machine_for(ctx, overrides, gpu::Probe::allowed, json);
    in.driver = machine.driver;
    in.driver_source = machine.driver_source;
    in.driver_cuda = machine.driver_cuda;
    auto findings = check::run_doctor(in);
    for (auto& f : check::gpu_findings(in, machine, ctx.store().root()))
        findings.push_back(std::move(f));
    if (in.active) add_stale_build_findings(findings, ctx.cwd(), in.active->toolkit.root);
    if (in.windows) {  // Windows' own topics (check/doctor_windows)
        findings.push_back(check::pwsh_policy_finding());  // PowerShell's execution policy
        findings.push_back(check::python_hook_finding(in));  // Python's DLL hook (check/doctor_windows)
        findings.push_back(check::msvc_finding(in, installed_toolsets(ctx.store(), ctx.env())));
    }
    bool failed = false;
    for (const auto& f : findings) failed = failed || f.status == check::Status::fail;
    if (json) {
        auto arr = nlohmann::json::array();
        for (const auto& f : findings) arr.push_back(f.to_json("topic"));
        std::cout << nlohmann::json{{"ok", !failed}, {"findings", arr}}.dump(2) << "\n";
    } else {
        Table t({"TOPIC", "STATUS", "FINDING"});
        for (const auto& f : findings) t.add({f.step, check::status_name(f.status), f.summary});
        std::cout << t.str();
        for (const auto& f : findings)
            if (!f.advice.empty() && f.status != check::Status::skip) std::cout << "\n" << f.step << ": " << f.advice << "\n";
    }
    ctx.exit_code = failed ? 1 : 0;
}

}  // namespace

void register_doctor(CLI::App* cmd, Context& ctx) {
    auto json = std::make_shared<bool>(false);
    auto overrides = std::make_shared<gpu::Overrides>();
    cmd->add_flag("--json", *json, "Print JSON");
    add_gpu_options(cmd, *overrides);
    cmd->callback([&ctx, json, overrides] { run_doctor_cmd(ctx, *json, *overrides); });
}

}  // namespace cudaenv
