// cudaenv-probe __probe --toolkit <dir> [--cudnn <dir>] ...: one pair's check,
// run by `cudaenv check` as a child process started with that pair's
// environment (src/check/runner.cpp). Only the cudaenv-probe program
// (src/main_probe.cpp) registers it; it is hidden from help and completions.
#include <CLI/CLI.hpp>
#include <iostream>

#include "check/probe.hpp"
#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

struct ProbeArgs {
    std::string toolkit, cudnn, variant, shape, gpu_lock, timing_lock, choice_fp32, choice_fp16;
    int runs = 25;
    double timeout = 0;
};

void run_probe_cmd(Context& ctx, const ProbeArgs& a) {
    check::ProbeOptions o;
    o.toolkit = fsx::from_utf8(a.toolkit);
    if (!a.cudnn.empty()) o.cudnn = fsx::from_utf8(a.cudnn);
    o.cudnn_variant = a.variant;
    if (!a.shape.empty()) {
        auto s = check::ConvShape::parse(a.shape);
        if (!s) throw UsageError("invalid --shape '" + a.shape + "'");
        o.shape = *s;
    }
    o.runs = a.runs;
    if (!a.gpu_lock.empty()) o.gpu_lock = fsx::from_utf8(a.gpu_lock);
    if (!a.timing_lock.empty()) o.timing_lock = fsx::from_utf8(a.timing_lock);
    o.timeout_s = a.timeout;
    o.conv_choice[0] = a.choice_fp32;
    o.conv_choice[1] = a.choice_fp16;
    ctx.exit_code = check::run_probe(o, std::cout);
}

}  // namespace

void register_probe(CLI::App* probe, Context& ctx) {
    auto a = std::make_shared<ProbeArgs>();
    probe->add_option("--toolkit", a->toolkit)->required();
    probe->add_option("--cudnn", a->cudnn);
    probe->add_option("--cudnn-variant", a->variant);
    probe->add_option("--shape", a->shape);
    probe->add_option("--runs", a->runs);
    probe->add_option("--gpu-lock", a->gpu_lock);
    probe->add_option("--timing-lock", a->timing_lock);
    probe->add_option("--timeout", a->timeout);
    probe->add_option("--conv-choice", a->choice_fp32);       // kept from an earlier check (store/conv_choice)
    probe->add_option("--conv-choice-fp16", a->choice_fp16);
    probe->callback([&ctx, a] { run_probe_cmd(ctx, *a); });
}

}  // namespace cudaenv
