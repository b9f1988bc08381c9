#include "check/gpu_code_step.hpp"

#include <algorithm>

#include "gpu/verdict.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

void add_gpu_code_step(PairResult& r, const gpu::Machine& m, gpu::CodeCache& cache) {
    StepResult s{"gpu_code", Status::skip, "", "", nlohmann::json::object()};
    std::vector<gpu::MachineGpu> gpus = m.gpus;
    // Without a known machine, the GPU the child saw (step gpu) is judged.
    if (const auto* g = r.step("gpu"); gpus.empty() && g && g->details.contains("compute_capability"))
        if (auto a = gpu::Arch::parse(g->details["compute_capability"].get<std::string>())) gpus.push_back({0, "", *a});
    const auto* files = r.step("files");
    if (!files || !files->details.contains("files")) return;
    auto list = nlohmann::json::array();
    std::vector<std::string> none, jit;
    int native = 0, with_code = 0;
    for (const auto& f : files->details["files"]) {
        if (!f.contains("path") || !f["path"].is_string()) continue;
        auto path = fsx::from_utf8(f["path"].get<std::string>());
        auto code = cache.file(path);
        nlohmann::json j{{"name", f.value("name", "")},
                         {"sass", gpu::sass_list(code.code)},
                         {"ptx", gpu::ptx_list(code.code)}};
        if (!code.problem.empty()) j["problem"] = code.problem;
        auto runs = nlohmann::json::object();
        if (code.code.has_kernels()) {
            ++with_code;
            bool all_native = true;
            for (const auto& g : gpus) {
                auto v = gpu::judge(code.code, g.arch);
                runs[g.arch.sass_name()] = gpu::runs_name(v.runs);
                all_native = all_native && v.runs == gpu::Runs::native;
                auto line = f.value("name", "") + " (" + m.label(g) + ": " + v.why + ")";
                if (v.runs == gpu::Runs::no) none.push_back(line);
                if (v.runs == gpu::Runs::jit) jit.push_back(line);
            }
            native += all_native && !gpus.empty();
        }
        j["runs"] = runs;
        list.push_back(j);
    }
    s.details["libraries"] = list;
    // Nothing to judge (no GPU code, no GPU known): no step, the report stays as it was.
    if (with_code == 0 || gpus.empty()) return;
    if (!none.empty()) {
        s.status = Status::fail;
        s.summary = "no code for this GPU: " + str::join(none, "; ");
        s.advice = "These libraries fail with \"no kernel image is available for execution on the device\" here: use a "
                   "release built for this GPU (`cudaenv list` shows which installed pairs run here).";
        r.pass = false;
    } else if (!jit.empty()) {
        s.status = Status::warn;
        s.summary = "only PTX (JIT): " + str::join(jit, "; ");
    } else {
        s.status = Status::ok;
        s.summary = std::to_string(native) + " of " + std::to_string(with_code) + " libraries with GPU code run natively";
    }
    // Right after the step that found the GPU, so the last step stays the one a child stopped in.
    auto at = std::find_if(r.steps.begin(), r.steps.end(), [](const StepResult& x) { return x.step == "gpu"; });
    r.steps.insert(at == r.steps.end() ? at : at + 1, s);
}

}  // namespace cudaenv::check
