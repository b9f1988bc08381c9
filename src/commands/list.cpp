// cudaenv list [--json|--bare]: every pair, the active one starred, and any
// cuDNN that fits no installed toolkit.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "commands/table.hpp"
#include "gpu/inspect.hpp"
#include "store/node_checks.hpp"
#include "store/detect_cache.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

// "store", "shared" (the system store's own folder), or the adopted folder ("... (shared)" when the system store adopted it).
template <class Record>
std::string where(const Record& r) {
    if (r.managed) return r.shared ? "shared" : "store";
    return fsx::to_utf8(r.path) + (r.shared ? " (shared)" : "");
}

void run_list(Context& ctx, bool json, bool bare, bool refresh, const gpu::Overrides& overrides) {
    auto& store = ctx.store();
    auto pairs = all_pairs(store);
    auto orphans = cudnns_without_toolkit(store);
    auto specs = unique_specs(pairs, store);
    if (refresh) {
        // Detect every folder again and keep the result for use/env/exec/the shims.
        DetectionCache cache(store);
        cache.refresh();
        for (const auto& t : store.toolkits()) cache.toolkit(t.path);
        for (const auto& c : store.cudnns()) cache.cudnn(c.path, c.variant);
    }

    // Which listed pair is active: the one the active spec selects (told
    // apart by its folders, as two toolkits of one version share a spec).
    std::optional<Pair> active_pair;
    try {
        auto active = ctx.active();
        if (!active.spec.system) active_pair = select_pair(active.spec, store);
    } catch (const Error&) {
        // An active spec that matches nothing is reported by `current`, not here.
    }
    auto cudnn_path = [](const Pair& p) { return p.cudnn ? fsx::to_utf8(p.cudnn->path) : std::string(); };
    auto is_active = [&](const Pair& p) {
        return active_pair && active_pair->toolkit.path == p.toolkit.path && cudnn_path(*active_pair) == cudnn_path(p);
    };
    // The result on this node (a shared store spans nodes with other GPUs and drivers).
    const auto checks = node_last_checks(store);
    auto last_check = [&](const Pair& p) -> std::optional<std::string> {
        auto it = checks.find({fsx::to_utf8(p.toolkit.path), cudnn_path(p)});
        return it == checks.end() ? std::nullopt : std::optional(it->second);
    };

    if (bare) {
        for (const auto& s : specs) std::cout << s << "\n";
        return;
    }
    // Whether each pair runs on this machine's GPUs: from the caches, never the probe.
    auto machine = machine_for(ctx, overrides, gpu::Probe::cache_only, json);
    std::vector<gpu::PairVerdict> runs;
    {
        DetectionCache folders(store);
        gpu::CodeCache code(store.root());
        runs = gpu::judge_pairs(pairs, folders, code, machine, gpu::Scan::read);
    }
    if (json) {
        auto arr = nlohmann::json::array();
        for (size_t i = 0; i < pairs.size(); ++i) {
            const auto& p = pairs[i];
            nlohmann::json j{{"spec", specs[i]},
                             {"active", is_active(p)},
                             {"cuda", {{"version", p.toolkit.version.str()},
                                       {"path", fsx::to_utf8(p.toolkit.path)},
                                       {"managed", p.toolkit.managed},
                                       {"shared", p.toolkit.shared}}},
                             {"cudnn", nullptr}};
            if (p.cudnn)
                j["cudnn"] = {{"version", p.cudnn->version.str()},
                              {"cuda_major", p.cudnn->cuda_major},
                              {"path", fsx::to_utf8(p.cudnn->path)},
                              {"managed", p.cudnn->managed},
                              {"shared", p.cudnn->shared}};
            auto check = last_check(p);
            j["check"] = check ? nlohmann::json(*check) : nlohmann::json(nullptr);
            j["gpu"] = {{"runs", gpu::runs_cell(runs[i])}, {"summary", runs[i].line(machine)}};
            arr.push_back(std::move(j));
        }
        auto loose = nlohmann::json::array();
        for (const auto& c : orphans)
            loose.push_back({{"version", c.version.str()},
                             {"cuda_major", c.cuda_major},
                             {"path", fsx::to_utf8(c.path)},
                             {"managed", c.managed},
                             {"shared", c.shared}});
        std::cout << nlohmann::json{{"pairs", arr}, {"cudnn_without_toolkit", loose}, {"machine", gpu::machine_json(machine)}}
                         .dump(2)
                  << "\n";
        return;
    }
    if (pairs.empty() && orphans.empty()) {
        std::cerr << "No CUDA installed yet. Try `cudaenv discover --add` or `cudaenv install 12.6`.\n";
        return;
    }
    Table t({"", "SPEC", "CUDA", "CUDNN", "WHERE", "CHECK", "GPU"});
    for (size_t i = 0; i < pairs.size(); ++i) {
        const auto& p = pairs[i];
        std::string loc = where(p.toolkit);
        if (p.cudnn && (p.cudnn->managed != p.toolkit.managed || p.cudnn->shared != p.toolkit.shared ||
                        !p.cudnn->managed))
            loc += " + " + where(*p.cudnn);
        t.add({is_active(p) ? "*" : "", specs[i], p.toolkit.version.str(),
               p.cudnn ? p.cudnn->version.str() : "-", loc, last_check(p).value_or("-"), gpu::runs_cell(runs[i])});
    }
    for (const auto& c : orphans)
        t.add({"", "-", "-", c.version.str() + (c.cuda_major ? " (for CUDA " + std::to_string(c.cuda_major) + ")" : ""),
               where(c), "no toolkit for it", ""});
    std::cout << t.str();
    // Why a pair is not native, one line each.
    for (size_t i = 0; i < pairs.size(); ++i)
        if (runs[i].notable()) std::cout << specs[i] << ": " << runs[i].line(machine) << "\n";
}

}  // namespace

void register_list(CLI::App* cmd, Context& ctx) {
    auto json = std::make_shared<bool>(false);
    auto bare = std::make_shared<bool>(false);
    auto refresh = std::make_shared<bool>(false);
    auto overrides = std::make_shared<gpu::Overrides>();
    cmd->add_flag("--json", *json, "Print JSON");
    cmd->add_flag("--bare", *bare, "Print only the specs, one per line");
    cmd->add_flag("--refresh", *refresh, "Detect every folder again (cudaenv keeps what it found)");
    add_gpu_options(cmd, *overrides);
    cmd->callback([&ctx, json, bare, refresh, overrides] { run_list(ctx, *json, *bare, *refresh, *overrides); });
}

}  // namespace cudaenv
