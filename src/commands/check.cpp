// cudaenv check [<spec>...] [--all] [--json]: prove that pairs work. Each pair
// runs in a child process (the cudaenv-probe program, src/main_probe.cpp)
// started with that pair's environment, so a crash, a hang or a conflicting library in one pair
// cannot take cudaenv down nor poison the next pair.
#include <CLI/CLI.hpp>
#include <iostream>
#include <sstream>

#include "check/gpu_code_step.hpp"
#include "check/probe.hpp"
#include "check/report.hpp"
#include "check/runner.hpp"
#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "commands/table.hpp"
#include "store/system_store.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv {

namespace {

struct CheckArgs {
    std::vector<std::string> specs;
    bool all = false, json = false;
    double timeout = 120;
    std::string shape;
    int runs = 25;
    bool system = false;
    std::string report;
    gpu::Overrides gpu;
};

std::string render(const check::PairResult& r) {
    std::ostringstream secs;
    secs.setf(std::ios::fixed);
    secs.precision(2);
    secs << r.seconds;
    std::string out = r.spec + ": " + (r.pass ? "PASS" : "FAIL") + " (" + secs.str() + " s)\n";
    Table t({"  STEP", "STATUS", "RESULT"});
    for (const auto& s : r.steps) t.add({"  " + s.step, check::status_name(s.status), s.summary});
    out += t.str();
    if (!r.advice.empty()) out += "  advice: " + r.advice + "\n";
    return out;
}

// Whether the store's results can be written: false for a store mounted
// read-only (in a container, on a node), which is checked all the same.
bool can_keep_results(const Store& store) {
    auto dir = store.root();
    while (!fsx::is_dir(dir) && dir.has_relative_path()) dir = dir.parent_path();  // created on the first write
    return fsx::user_file_os::can_create_in(dir);
}

void run_check(Context& ctx, const CheckArgs& a) {
    if (!a.report.empty()) {  // merge the --json outputs of many nodes; checks nothing itself
        if (a.all || !a.specs.empty() || a.system) throw UsageError("--report takes only a folder (and --json)");
        check::write_report(fsx::from_utf8(a.report), a.json, std::cout);
        return;
    }
    // --system: the system store's pairs, results kept there. Its lock is
    // taken here only to prove write access, and again just for the writes,
    // so checks on many nodes at once do not wait for each other.
    std::unique_ptr<ExclusiveLock> system_lock;
    if (a.system) system_lock = enter_system_store(ctx, a.json);
    system_lock.reset();
    auto& store = ctx.store();
    check::RunOptions opts;
    if (a.timeout <= 0) throw UsageError("--timeout must be positive", "e.g. --timeout 60");
    opts.timeout = std::chrono::milliseconds(static_cast<long long>(a.timeout * 1000));
    if (a.runs < 1 || a.runs > 10000) throw UsageError("--runs must be between 1 and 10000");
    opts.runs = a.runs;
    if (!a.shape.empty()) {
        opts.shape = check::ConvShape::parse(a.shape);
        if (!opts.shape) throw UsageError("invalid --shape '" + a.shape + "'", "N x C x H x W x K, e.g. 32x64x56x56x64");
    }

    std::vector<Pair> pairs;
    if (a.all) {
        if (!a.specs.empty()) throw UsageError("give specs or --all, not both");
        pairs = all_pairs(store);
        if (pairs.empty())
            throw Error("no pairs to check: nothing is installed", "run `cudaenv discover --add` or `cudaenv install 12.6`");
    } else if (!a.specs.empty()) {
        for (const auto& s : a.specs) {
            auto spec = Spec::parse_or_throw(s);
            if (spec.system) throw UsageError("`system` is not a pair cudaenv can check", "name a pair, or use --all");
            pairs.push_back(select_pair(spec, store));
        }
    } else {
        auto active = ctx.active();
        if (active.spec.system)
            throw UsageError("no pair is active (system)", "name one: `cudaenv check 12.6`, or check all: `cudaenv check --all`");
        pairs.push_back(select_pair(active.spec, store));
    }

    check::probe_program();  // missing: say so before announcing anything
    if (!a.json)
        for (const auto& spec : check::shown_specs(pairs, store)) std::cerr << "checking " << spec << " ...\n";
    auto results = check::check_pairs(pairs, store, opts);
    {
        auto machine = machine_for(ctx, a.gpu, gpu::Probe::allowed, a.json);
        gpu::CodeCache code(store.root());
        for (auto& r : results) check::add_gpu_code_step(r, machine, code);
    }
    if (!a.json)
        for (const auto& r : results) std::cout << render(r);
    const auto node = check::node_key(results);
    const auto checked_at = check::utc_now();
    if (!can_keep_results(store)) {
        std::cerr << "cudaenv: the store '" << str::visible(fsx::to_utf8(store.root()))
                  << "' is read-only here: this check's result was not kept\n";
    } else {
        if (a.system) system_lock = lock_system_store(store.root(), true);
        check::save_results(store, results);
        // Per node too: a shared store spans nodes with other GPUs and drivers.
        check::save_node_results(store, node, results, checked_at);
        system_lock.reset();
    }

    bool all_pass = true;
    for (const auto& r : results) all_pass = all_pass && r.pass;
    if (a.json) {
        auto arr = nlohmann::json::array();
        for (const auto& r : results) arr.push_back(r.to_json());
        std::cout << nlohmann::json{{"pass", all_pass}, {"node", node.to_json()}, {"checked_at", checked_at}, {"pairs", arr}}
                         .dump(2)
                  << "\n";
    } else if (results.size() > 1) {
        Table t({"SPEC", "RESULT", "SUMMARY"});
        for (const auto& r : results) t.add({r.spec, r.pass ? "pass" : "FAIL", r.summary});
        std::cout << "\n" << t.str();
    }
    ctx.exit_code = all_pass ? 0 : 1;
}

}  // namespace

void register_check(CLI::App* cmd, Context& ctx) {
    auto a = std::make_shared<CheckArgs>();
    cmd->add_option("spec", a->specs, "Pairs to check (default: the active one)");
    cmd->add_flag("--all", a->all, "Check every installed pair");
    cmd->add_flag("--json", a->json, "Print JSON");
    cmd->add_option("--timeout", a->timeout, "Seconds one pair may take before it counts as hung (default 120)");
    cmd->add_option("--shape", a->shape, "Convolution N x C x H x W x K (default 32x64x56x56x64, 3x3, padding 1)");
    cmd->add_option("--runs", a->runs,
                    "Timed runs per convolution, each per call and then in 3 back-to-back batches (default 25)");
    add_system_flag(cmd, a->system);
    add_gpu_options(cmd, a->gpu);
    cmd->add_option("--report", a->report,
                    "Merge the `check --json` outputs (*.json) in this folder, from many nodes, into one node x pair "
                    "table (Markdown; JSON with --json)");
    cmd->footer("Each pair runs in its own process with that pair's environment. Exit status 0 only if every pair passed.");
    cmd->callback([&ctx, a] { run_check(ctx, *a); });
}

}  // namespace cudaenv
