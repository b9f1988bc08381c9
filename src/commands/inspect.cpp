// cudaenv inspect [SPEC | FILE | DIR] [--json]: the GPU code each library
// carries (SASS, PTX) and whether it runs on this machine's GPUs. The work is
// gpu/ (fatbin reader, cache, verdicts, the machine); a pair is named by its
// row (view/pair_rows), as `list` names it; this file parses and prints.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "commands/table.hpp"
#include "gpu/inspect.hpp"
#include "store/detect_cache.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "view/pair_view.hpp"

namespace cudaenv {

namespace {

struct InspectArgs {
    std::string what;
    bool json = false;
    gpu::Overrides overrides;
};

void run_inspect(Context& ctx, const InspectArgs& a) {
    auto machine = machine_for(ctx, a.overrides, gpu::Probe::allowed, a.json);
    gpu::CodeCache cache(ctx.store().root());
    gpu::Inspection in;
    std::optional<view::PairRow> row;
    auto path = fsx::from_utf8(a.what);
    if (!a.what.empty() && fsx::exists(path)) {
        cache.keep_new_files(false);
        in = gpu::inspect_path(fsx::absolute_normal(path), cache, machine);
    } else {
        auto spec = a.what.empty() ? ctx.active().spec : Spec::parse_or_throw(a.what);
        if (spec.system)
            throw Error("no pair is active (system)", "name one: cudaenv inspect 12.6, a library file or a folder");
        // Named as `list` names it, with its row (where, last check) in the JSON.
        auto pair = select_pair(spec, ctx.store());
        row = view::pair_row(ctx.store(), pair, {});
        DetectionCache folders(ctx.store());
        in = gpu::inspect_pair(detect_pair(pair, folders), row->spec, cache, machine);
    }
    if (in.problems) ctx.exit_code = 1;  // the report is whole either way
    if (a.json) {
        auto j = gpu::inspection_json(in, machine);
        if (row) j["row"] = view::row_json(*row, nullptr);
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << gpu::machine_line(machine) << "\n";
    Table t({"LIBRARY", "SASS", "PTX", "RUNS"});
    for (const auto& cells : gpu::inspection_rows(in, machine)) t.add(cells);
    std::cout << t.str();
    for (const auto& line : gpu::inspection_footer(in, machine)) std::cout << line << "\n";
}

}  // namespace

void register_inspect(CLI::App* cmd, Context& ctx) {
    auto a = std::make_shared<InspectArgs>();
    cmd->add_option("what", a->what, "A spec (12.6, 11.8+8.9.7), a library file or a folder; default: the active pair");
    cmd->add_flag("--json", a->json, "Print JSON");
    add_gpu_options(cmd, a->overrides);
    cmd->callback([&ctx, a] { run_inspect(ctx, *a); });
}

}  // namespace cudaenv
