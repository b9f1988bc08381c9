#include "check/runner.hpp"

#include <algorithm>
#include <atomic>
#include <ctime>
#include <map>
#include <optional>
#include <thread>
#include <sstream>

#include "check/doctor_clients.hpp"
#include "check/report.hpp"
#include "core/activation.hpp"
#include "store/activation_cache.hpp"
#include "platform/install_dirs.hpp"
#include "platform/lock.hpp"
#include "store/checks.hpp"
#include "store/conv_choice.hpp"
#include "gpu/pair_code.hpp"
#include "store/detect_cache.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/json_text.hpp"

namespace cudaenv::check {

namespace {

std::string tail_lines(const std::string& text, size_t lines) {
    size_t pos = text.size();
    while (pos > 0 && lines > 0) {
        pos = text.rfind('\n', pos - 1);
        if (pos == std::string::npos) return text;
        --lines;
    }
    return text.substr(pos == 0 ? 0 : pos + 1);
}

std::string fmt_seconds(double s) {
    std::ostringstream o;
    o.setf(std::ios::fixed);
    o.precision(2);
    o << s << " s";
    return o.str();
}

}  // namespace

PairResult assemble(const std::string& spec, const std::string& child_out, const std::string& child_err,
                    const std::string& ended_how, bool has_cudnn) {
    PairResult r;
    r.spec = spec;
    std::map<std::string, StepResult> got;
    std::istringstream in(child_out);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.starts_with(probe_marker)) continue;
        auto j = parse_json(line.substr(std::string(probe_marker).size()));
        if (j.is_discarded() || !j.is_object()) continue;
        auto s = StepResult::from_json(j);
        got[s.step] = s;  // a later report of a step (origins) replaces the earlier one
    }
    // A child that did not end normally stopped in the first step it did not report.
    bool stopped = !ended_how.empty();
    bool blamed = false;
    for (const char* name : step_names) {
        if (auto it = got.find(name); it != got.end()) {
            r.steps.push_back(it->second);
            continue;
        }
        if (stopped && !blamed) {
            blamed = true;
            StepResult s{name, Status::fail, "the check process " + ended_how + " during this step", "", nlohmann::json::object()};
            s.advice = ended_how.find("timed out") != std::string::npos
                           ? "A CUDA library hung (often a driver that does not answer, or a GPU held by another "
                             "process): check nvidia-smi, then try again."
                           : "A library of this pair crashed the process: the libraries are damaged or mixed from "
                             "different releases; reinstall the pair.";
            auto err_tail = tail_lines(child_err, 8);
            if (!err_tail.empty()) s.details["stderr"] = err_tail;
            r.steps.push_back(s);
        }
    }
    if (stopped && !blamed) {
        // Every step reported, then the process died (e.g. while unloading).
        r.steps.push_back({"exit", Status::fail, "the check process " + ended_how + " after the last step", "", nlohmann::json::object()});
    }

    const StepResult* first_fail = nullptr;
    for (const auto& s : r.steps)
        if (s.status == Status::fail) {
            first_fail = &s;
            break;
        }
    const auto* gpu = r.step("gpu");
    const auto* conv = r.step("conv");
    bool gpu_ok = gpu && (gpu->status == Status::ok || gpu->status == Status::warn);
    bool conv_ok = conv && (conv->status == Status::ok || conv->status == Status::warn);
    r.pass = !first_fail && gpu_ok && (conv_ok || (!has_cudnn && conv && conv->status == Status::skip));
    if (first_fail) {
        r.summary = first_fail->step + ": " + first_fail->summary;
        r.advice = first_fail->advice;
    } else if (!r.pass) {
        r.summary = "incomplete: the check stopped before the convolution";
    } else if (conv_ok) {
        r.summary = conv->summary;
        if (const auto* h = r.step("conv_fp16"); h && (h->status == Status::ok || h->status == Status::warn)) {
            auto ms = h->details.value("median_ms", 0.0);
            std::ostringstream o;
            o.setf(std::ios::fixed);
            o.precision(3);
            o << "; fp16 " << ms << " ms";
            r.summary += o.str();
        }
    } else {
        r.summary = gpu ? gpu->summary + "; no cuDNN to run a convolution" : "ok";
    }
    for (const auto& s : r.steps)
        if (r.advice.empty() && s.status == Status::warn) r.advice = s.advice;
    return r;
}

namespace {

// What a kept convolution choice is filed under (store/conv_choice): the
// pair's folders, the shape and the data type; the value lists it per GPU
// and cuDNN version (details.choice_id, "9.0/132/9.19.0").
std::string choice_key(const Pair& pair, const RunOptions& opts, bool half) {
    return fsx::to_utf8(pair.toolkit.path) + "\n" + (pair.cudnn ? fsx::to_utf8(pair.cudnn->path) + "\n" + pair.cudnn->variant : "-") +
           "\n" + (opts.shape ? opts.shape->str() : ConvShape{}.str()) + (half ? "\nfp16" : "\nfp32");
}

// "<id>=<choice>;..." with `id`'s entry put first and replaced by `choice`.
std::string with_choice(const std::string& list, const std::string& id, const std::string& choice) {
    std::string out = id + "=" + choice;
    size_t at = 0;
    while (at < list.size()) {
        auto end = list.find(';', at);
        auto item = list.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (!item.empty() && !item.starts_with(id + "=")) out += ";" + item;
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return out;
}

// A child ready to start: its command line and environment, or the result
// when the pair could not even be planned.
struct ChildRun {
    std::string spec;  // as `list` shows it: unique among the store's pairs
    std::vector<std::string> argv;
    std::vector<std::pair<std::string, std::string>> env;
    std::chrono::milliseconds kill_after{0};
    std::optional<PairResult> early;
};

// Reads the store (not thread-safe): done for every pair before any child starts.
ChildRun prepare_child(const Pair& pair, const std::string& spec, Store& store, const RunOptions& opts,
                       const std::filesystem::path& program, const ConvChoices& choices) {
    ChildRun run;
    run.spec = spec;
    std::vector<std::string> argv = {fsx::to_utf8(program), "__probe", "--toolkit", fsx::to_utf8(pair.toolkit.path)};
    if (pair.cudnn) {
        argv.insert(argv.end(), {"--cudnn", fsx::to_utf8(pair.cudnn->path)});
        if (!pair.cudnn->variant.empty()) argv.insert(argv.end(), {"--cudnn-variant", pair.cudnn->variant});
    }
    if (opts.shape) {
        const auto& s = *opts.shape;
        argv.insert(argv.end(), {"--shape", std::to_string(s.n) + "x" + std::to_string(s.c) + "x" + std::to_string(s.h) +
                                                "x" + std::to_string(s.w) + "x" + std::to_string(s.k)});
    }
    argv.insert(argv.end(), {"--runs", std::to_string(opts.runs)});
    // The convolution path chosen by an earlier check, per GPU: timed again as it is.
    for (bool half : {false, true})
        if (auto kept = choices.get(choice_key(pair, opts, half)); !kept.empty())
            argv.insert(argv.end(), {half ? "--conv-choice-fp16" : "--conv-choice", kept});
    // With others at once, the child keeps its own timeout (its wait for the
    // GPU lock not counted); the parent's limit is only the backstop for a
    // child that cannot keep it.
    run.kill_after = opts.timeout;
    if (!opts.gpu_lock.empty()) {
        argv.insert(argv.end(), {"--gpu-lock", fsx::to_utf8(opts.gpu_lock), "--timing-lock",
                                 fsx::to_utf8(opts.timing_lock), "--timeout",
                                 std::to_string(std::chrono::duration<double>(opts.timeout).count())});
        run.kill_after = opts.timeout * 8;
    }

    // The child gets exactly what `cudaenv use <spec>` would give a shell.
    auto env = platform::environment();
    try {
        // Detected afresh: a check is when the store's detection is refreshed.
        {
            DetectionCache cache(store);
            cache.forget(pair.toolkit.path);
            if (pair.cudnn) cache.forget(pair.cudnn->path, pair.cudnn->variant);
        }
        auto plan = plan_activation(store, pair, spec, [](const std::string& n) { return platform::get_env(n); },
                                    native_path_style());
        // A driver too old for the pair: the cuda-compat libraries first, where forward compatibility runs it.
        if (plan.folders) gpu::apply_forward_compat(store.root(), *plan.folders, plan.diff);
        env = plan.applied_to(std::move(env), native_path_style());
    } catch (const std::exception& e) {
        PairResult r;
        r.spec = spec;
        r.toolkit_path = fsx::to_utf8(pair.toolkit.path);
        if (pair.cudnn) r.cudnn_path = fsx::to_utf8(pair.cudnn->path);
        r.steps.push_back({"files", Status::fail, e.what(), "Run `cudaenv list`; forget or re-add the folder.", nlohmann::json::object()});
        r.summary = std::string("files: ") + e.what();
        r.advice = r.steps.back().advice;
        run.early = r;
        return run;
    }
    run.argv = std::move(argv);
    run.env = std::move(env);
    return run;
}

PairResult run_child(const Pair& pair, const ChildRun& run, const RunOptions& opts) {
    if (run.early) return *run.early;
    const auto& spec = run.spec;
    std::string ended;
    auto pr = platform::run_process(run.argv, run.env, run.kill_after);
    if (!pr.started) ended = "could not start (" + pr.error + ")";
    else if (pr.timed_out || (!opts.gpu_lock.empty() && pr.exit_code == probe_timeout_status))
        ended = "timed out after " + fmt_seconds(std::chrono::duration<double>(opts.timeout).count());
    else if (!pr.signal_name.empty()) ended = "crashed (" + pr.signal_name + ")";
    else if (pr.exit_code != 0) ended = "exited with status " + std::to_string(pr.exit_code);
    auto r = assemble(spec, pr.out, pr.err, ended, pair.cudnn.has_value());
    // The host compiler this pair's nvcc gets under `use` (doctor_clients.cpp); no bearing on pass.
    if (fsx::is_file(pair.toolkit.path / "bin" / (std::string("nvcc") + platform::exe_suffix()))) {
        auto env = [&](const std::string& n) -> std::optional<std::string> {
            for (const auto& [k, v] : run.env)
                if (same_env_name(k, n, native_path_style())) return v;
            return std::nullopt;
        };
        r.steps.push_back(host_compiler_finding(pair.toolkit.version, spec, env, platform::is_windows));
        if (r.steps.back().status == Status::warn)
            r.advice += (r.advice.empty() ? "" : " ") + r.steps.back().advice;
    }
    r.toolkit_path = fsx::to_utf8(pair.toolkit.path);
    if (pair.cudnn) r.cudnn_path = fsx::to_utf8(pair.cudnn->path);
    r.seconds = pr.seconds;
    return r;
}

// Keeps each convolution's chosen path for the next check of the pair on this GPU.
void keep_choices(Store& store, const std::vector<Pair>& pairs, const RunOptions& opts,
                  const std::vector<PairResult>& results) {
    try {
        auto lock = store.lock();  // checks of other pairs at once must not drop each other's choices
        ConvChoices choices(store.conv_choice_file());
        for (size_t i = 0; i < pairs.size() && i < results.size(); ++i)
            for (bool half : {false, true}) {
                const auto* s = results[i].step(half ? "conv_fp16" : "conv");
                if (!s || (s->status != Status::ok && s->status != Status::warn)) continue;
                auto choice = s->details.value("choice", std::string());
                auto id = s->details.value("choice_id", std::string());  // the GPU and the cuDNN version
                if (choice.empty() || id.empty()) continue;
                const auto key = choice_key(pairs[i], opts, half);
                choices.set(key, with_choice(choices.get(key), id, choice));
            }
        choices.save();
    } catch (const std::exception&) {
        // a store this user cannot write (the system store) keeps no choice: the next check chooses again
    }
}

}  // namespace

std::vector<std::string> shown_specs(const std::vector<Pair>& pairs, Store& store) {
    auto all = all_pairs(store);
    auto unique = unique_specs(all, store);
    std::vector<std::string> out;
    for (const auto& p : pairs) {
        auto it = std::find_if(all.begin(), all.end(), [&](const Pair& a) { return a.same_as(p); });
        out.push_back(it == all.end() ? p.spec() : unique[static_cast<size_t>(it - all.begin())]);
    }
    return out;
}

std::filesystem::path probe_program() {
    return platform::required_sibling_program("cudaenv-probe", "the check program");
}

std::vector<PairResult> check_pairs(const std::vector<Pair>& pairs, Store& store, const RunOptions& opts,
                                    int max_parallel) {
    std::vector<PairResult> results(pairs.size());
    if (!platform::parallel_children) max_parallel = 1;  // platform/process.hpp says why
    const auto specs = shown_specs(pairs, store);
    const auto program = probe_program();
    const ConvChoices choices(store.conv_choice_file());
    if (pairs.size() <= 1 || max_parallel <= 1) {
        for (size_t i = 0; i < pairs.size(); ++i)
            results[i] = run_child(pairs[i], prepare_child(pairs[i], specs[i], store, opts, program, choices), opts);
        keep_choices(store, pairs, opts, results);
        return results;
    }
    RunOptions shared = opts;
    ensure_writable_dir(store.tmp_dir());
    shared.gpu_lock = store.check_gpu_lock_file();
    shared.timing_lock = store.check_timing_lock_file();
    // Taken once here so that a lock file that cannot be made fails now, not in every child.
    { platform::FileLock probe_lock(shared.gpu_lock, true); }
    std::vector<ChildRun> runs;
    for (size_t i = 0; i < pairs.size(); ++i)
        runs.push_back(prepare_child(pairs[i], specs[i], store, shared, program, choices));
    std::atomic<size_t> next{0};
    std::vector<std::thread> workers;
    const size_t n = std::min(pairs.size(), static_cast<size_t>(max_parallel));
    for (size_t w = 0; w < n; ++w)
        workers.emplace_back([&] {
            for (size_t i; (i = next++) < pairs.size();) results[i] = run_child(pairs[i], runs[i], shared);
        });
    for (auto& t : workers) t.join();
    keep_choices(store, pairs, opts, results);
    return results;
}

void save_results(Store& store, const std::vector<PairResult>& results) {
    const std::string when = utc_now();
    // Read, change and write under the store lock: checks run in parallel
    // must not drop each other's results.
    auto lock = store.lock();
    Checks checks;
    try {
        checks = Checks::load(store.checks_file());
    } catch (const Error&) {
        // an unreadable file only held old results: start again
    }
    for (const auto& r : results)
        checks.record({r.spec, r.toolkit_path, r.cudnn_path, r.pass, r.summary, when, r.seconds, r.advice});
    checks.save(store.checks_file());
}

}  // namespace cudaenv::check
