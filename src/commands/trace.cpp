// cudaenv trace [<spec>] [--json[=FILE]] [--strict] -- <cmd> [args...]: run a
// command under a pair (as exec does) and report every CUDA-family library it
// and its children really loaded, where from, why there, and a verdict.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "gpu/code_cache.hpp"
#include "gpu/machine.hpp"
#include "gpu/pair_code.hpp"
#include "gpu/verdict.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "platform/tracer.hpp"
#include "trace/trace.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv {

namespace {

struct TraceArgs {
    std::optional<std::string> spec;
    bool strict = false, json = false;
    std::string json_file;  // "" = stdout
    std::vector<std::string> command;
};

constexpr const char* usage_hint = "cudaenv trace 12.6+9.8 -- python train.py";

TraceArgs parse_args(std::vector<std::string> rest) {
    TraceArgs a;
    // app.cpp puts ":active" first when an option leads (a positional, so CLI11
    // keeps every word in order here instead of handing a lone `--` upwards).
    if (!rest.empty() && rest.front() == ":active") rest.erase(rest.begin());
    auto dash = std::find(rest.begin(), rest.end(), "--");
    bool has_dash = dash != rest.end();
    std::vector<std::string> head(rest.begin(), dash);
    if (has_dash) a.command.assign(dash + 1, rest.end());
    // Without `--` the options come first and the first other word starts the command.
    size_t i = 0;
    for (; i < head.size(); ++i) {
        const auto& w = head[i];
        if (w == "--strict") a.strict = true;
        else if (w == "--json") a.json = true;
        else if (w.starts_with("--json=")) {
            a.json = true;
            a.json_file = w.substr(7);
            if (a.json_file.empty()) throw UsageError("--json= needs a file name", "cudaenv trace --json=out.json -- ./app");
        } else if (w.starts_with("-")) throw UsageError("unknown option for trace: " + w, usage_hint);
        else if (has_dash && !a.spec) a.spec = w;
        else if (has_dash) throw UsageError("trace takes one spec before `--`, got also '" + w + "'", usage_hint);
        else break;
    }
    if (!has_dash) {
        a.command.assign(head.begin() + static_cast<std::ptrdiff_t>(i), head.end());
        // `trace 12.6 -- cmd` reaches us with the `--` taken out by the parser:
        // a first word that is a spec and no program is the spec.
        if (a.command.size() > 1 && Spec::parse(a.command.front()) &&
            !platform::find_on_path(a.command.front(), platform::get_env("PATH").value_or(""))) {
            a.spec = a.command.front();
            a.command.erase(a.command.begin());
        }
    }
    if (a.command.empty()) throw UsageError("no command to trace", usage_hint);
    return a;
}

void run_trace(Context& ctx, const TraceArgs& a) {
    // A report file that cannot be written is refused before the command runs (a folder, a missing folder, no permission).
    if (!a.json_file.empty()) fsx::check_user_file_writable(ctx.cwd() / fsx::from_utf8(a.json_file));
    std::string spec_text = a.spec ? *a.spec : ctx.active().spec.str();
    auto spec = Spec::parse_or_throw(spec_text);
    // The pair as `exec` would activate it: one plan, applied to this environment.
    auto plan = ctx.plan_for(spec_text);  // throws, listing what is installed
    auto env = plan.applied_to(platform::environment(), native_path_style());
    auto input = trace::input_for(plan, ctx.store());

    auto run = platform::trace_command(a.command, env);
    auto report = trace::analyse(trace::parse_records(run.records), input);
    // A loaded library with no code for this machine's GPUs (gpu/pair_code).
    {
        auto machine = gpu::this_machine(ctx.store().root(), {}, gpu::Probe::allowed);
        gpu::CodeCache code(ctx.store().root());
        std::vector<std::string> paths;
        for (const auto& l : report.libraries) paths.push_back(l.real_path);
        for (auto& w : gpu::loaded_library_warnings(paths, machine, code)) {
            if (report.warnings.empty() && report.problems.empty() && input.pair) report.verdict += ", but see the warnings";
            report.warnings.push_back(std::move(w));
            report.mismatch = true;
        }
    }
    std::cout.flush();
    std::cerr << trace::render_text(report, run.exit_code, run.signal_name);
    if (a.json) {
        auto doc = trace::to_json(report, run.exit_code, run.signal_name).dump(2) + "\n";
        if (a.json_file.empty()) {
            std::cout << doc;
            std::cout.flush();
        } else {
            // Written through a link, directly into a device or FIFO (util/user_file); a
            // failure now (a full disk) is said, and the command's own status is kept.
            try {
                fsx::write_user_file(ctx.cwd() / fsx::from_utf8(a.json_file), doc);
            } catch (const Error& e) {
                std::cerr << "cudaenv: warning: the JSON report was not written: " << e.what() << "\n";
            }
        }
    }
    ctx.exit_code = run.exit_code;
    if (a.strict && run.exit_code == 0 && report.mismatch) ctx.exit_code = 1;
}

}  // namespace

void register_trace(CLI::App* cmd, Context& ctx) {
    // Everything is parsed here: the command's own options must never reach CLI11.
    cmd->prefix_command();
    cmd->fallthrough(false);
    cmd->footer(
        "Usage: cudaenv trace [<spec>] [--json[=FILE]] [--strict] -- <cmd> [args...]\n"
        "The report and verdict go to stderr after the command ends; --json writes a JSON document to stdout\n"
        "(after the command's own output) or to FILE. --strict: exit 1 when the command succeeded but a library\n"
        "did not come from the pair.\nExample: cudaenv trace 12.6+9.8 -- python -c \"import torch\"");
    cmd->callback([&ctx, cmd] { run_trace(ctx, parse_args(cmd->remaining())); });
}

}  // namespace cudaenv
