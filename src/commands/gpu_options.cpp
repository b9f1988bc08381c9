#include "commands/gpu_options.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <optional>

#include "commands/context.hpp"
#include "gpu/install_choice.hpp"
#include "gpu/pair_code.hpp"
#include "util/strings.hpp"

namespace cudaenv {

void add_gpu_options(CLI::App* cmd, gpu::Overrides& opts) {
    cmd->add_option("--gpu", opts.gpu, "Judge for these GPUs instead of this machine's, e.g. sm_61,sm_90 (env CUDAENV_GPU)");
    cmd->add_option("--driver", opts.driver, "Judge for this driver version instead of this machine's, e.g. 535.104 (env CUDAENV_DRIVER)");
}

gpu::Machine machine_for(Context& ctx, const gpu::Overrides& opts, gpu::Probe probe, bool quiet) {
    auto m = gpu::this_machine(ctx.store().root(), opts, probe);
    if (!quiet)
        if (auto note = m.override_note(); !note.empty()) std::cerr << "cudaenv: " << note << "\n";
    return m;
}

void add_force_option(CLI::App* cmd, bool& force) {
    cmd->add_flag("--force", force,
                  "Take releases that cannot run on this machine's GPUs or driver anyway (e.g. for another machine)");
}

MachineSource lazy_machine(Context& ctx, const gpu::Overrides& opts) {
    auto kept = std::make_shared<std::optional<gpu::Machine>>();
    return [&ctx, opts, kept]() -> const gpu::Machine& {
        if (!*kept) *kept = machine_for(ctx, opts, gpu::Probe::allowed);
        return **kept;
    };
}

namespace {

bool anything_known(const gpu::Machine& m) { return m.known() || !m.driver.empty() || !m.driver_cuda.empty(); }

}  // namespace

install::RunsHere runs_here_for(MachineSource machine, bool force) {
    install::RunsHere r;
    r.releases = [machine, force](const std::string& product, std::vector<Version>& rs, const Version& wanted) {
        gpu::keep_releases_that_run(product, rs, wanted, machine(), force, std::cerr);
    };
    auto warned = std::make_shared<bool>(false);
    r.pair = [machine, force, warned](const Version& cuda, const std::optional<Version>& cudnn) -> std::string {
        const auto& m = machine();
        if (!anything_known(m)) return {};
        auto why = gpu::judge_pair(cuda, cudnn, {}, m).refusal(m);
        if (why.empty() || !force) return why;
        if (!*warned)
            std::cerr << "cudaenv: warning: " << cuda.str() << (cudnn ? "+" + cudnn->str() : "+none")
                      << " cannot run here: " << why << "; taking it anyway (--force)\n";
        *warned = true;
        return {};
    };
    return r;
}

namespace {

gpu::PairVerdict judge_lock(const LockFile& lock, const gpu::Machine& m) {
    auto cuda = Version::parse(lock.cuda_release);
    std::optional<Version> cudnn;
    if (!lock.cudnn_version.empty()) cudnn = Version::parse(lock.cudnn_version);
    gpu::PairNeeds needs;
    needs.min_driver_linux = lock.needs.driver_linux;
    needs.min_driver_windows = lock.needs.driver_windows;
    needs.cc_lo = Version::parse(lock.needs.compute_capability_min).value_or(Version());
    needs.cc_hi = Version::parse(lock.needs.compute_capability_max).value_or(Version());
    return gpu::judge_pair(cuda, cudnn, {}, m, gpu::TableUse::compare, nullptr, {}, &needs);
}

}  // namespace

std::function<std::string(const LockFile&)> lock_judge_for(MachineSource machine, bool force) {
    return [machine, force](const LockFile& lock) -> std::string {
        if (lock.adopted) return {};  // folders of this machine: check judges them
        const auto& m = machine();
        if (!anything_known(m)) return {};
        auto why = judge_lock(lock, m).refusal(m);
        if (why.empty() || !force) return why;
        std::cerr << "cudaenv: warning: " << lock.pair << " cannot run here: " << why << "; installing it anyway (--force)\n";
        return {};
    };
}

void print_judged(const LockFile& lock, const gpu::Machine& m, std::ostream& err) {
    if (lock.adopted || !anything_known(m)) return;
    auto v = judge_lock(lock, m);
    std::vector<std::string> on;
    for (const auto& g : m.gpus) on.push_back(m.label(g));
    if (!m.driver.empty()) on.push_back("driver " + m.driver);
    err << "cudaenv: judged " << lock.pair << " for " << str::join(on, " and ") << ": " << v.line(m) << "\n";
}

}  // namespace cudaenv
