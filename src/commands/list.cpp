// cudaenv list [--all] [--json|--bare]: each toolkit with its default cuDNN
// (with --all: with every cuDNN that fits it), the active one starred, and
// any cuDNN that fits no installed toolkit. The rows are view/pair_rows'.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "commands/table.hpp"
#include "store/detect_cache.hpp"
#include "util/error.hpp"
#include "view/pair_view.hpp"

namespace cudaenv {

namespace {

struct ListArgs {
    bool json = false, bare = false, refresh = false, all = false;
    gpu::Overrides overrides;
};

void run_list(Context& ctx, const ListArgs& a) {
    if (a.refresh) detect_again(ctx.store());  // kept for use/env/exec/the shims
    view::RowInputs in;
    try {
        if (auto active = ctx.active(); !active.spec.system) in.active = select_pair(active.spec, ctx.store());
    } catch (const Error&) {
        // An active spec that matches nothing is reported by `current`, not here.
    }
    // Whether each pair runs on this machine's GPUs: from the caches, never the probe.
    std::optional<gpu::Machine> machine;
    if (!a.bare) in.machine = &machine.emplace(machine_for(ctx, a.overrides, gpu::Probe::cache_only, a.json));
    auto listing = view::list_pairs(ctx.store(), a.all ? view::Which::all : view::Which::defaults, in);
    if (a.bare) {
        for (const auto& r : listing.rows) std::cout << r.spec << "\n";
        return;
    }
    if (a.json) {
        std::cout << view::listing_json(listing).dump(2) << "\n";
        return;
    }
    if (listing.rows.empty() && listing.loose.empty()) {
        std::cerr << "No CUDA installed yet. Try `cudaenv discover --add` or `cudaenv install 12.6`.\n";
        return;
    }
    auto text = view::listing_table(listing);
    Table t(text.header);
    for (auto& row : text.rows) t.add(std::move(row));
    std::cout << t.str();
    for (const auto& note : text.notes) std::cout << note << "\n";
}

}  // namespace

void register_list(CLI::App* cmd, Context& ctx) {
    auto a = std::make_shared<ListArgs>();
    cmd->add_flag("--all", a->all, "Every toolkit with every cuDNN that fits it (default: each with its pinned or newest cuDNN)");
    cmd->add_flag("--json", a->json, "Print JSON");
    cmd->add_flag("--bare", a->bare, "Print only the specs, one per line");
    cmd->add_flag("--refresh", a->refresh, "Detect every folder again (cudaenv keeps what it found)");
    add_gpu_options(cmd, a->overrides);
    cmd->callback([&ctx, a] { run_list(ctx, *a); });
}

}  // namespace cudaenv
