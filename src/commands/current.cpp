// cudaenv current [--json]: the active pair and what set it, as its row
// (view/pair_rows) names it: the spec `list` shows, which CUDAENV_VERSION holds after `use`.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "util/error.hpp"
#include "view/pair_view.hpp"

namespace cudaenv {

namespace {

void run_current(Context& ctx, bool json) {
    auto active = ctx.active();
    std::optional<view::PairRow> row;
    if (!active.spec.system) {
        try {
            auto pair = select_pair(active.spec, ctx.store());
            row = view::pair_row(ctx.store(), pair, {pair, nullptr});
        } catch (const Error& e) {
            throw Error(std::string(e.what()) + " (set by " + active.describe() + ")", e.hint());
        }
    }
    const std::string spec = row ? row->spec : "system";
    if (!json) {
        std::cout << spec << " (set by " << active.describe() << ")\n";
        return;
    }
    auto j = row ? view::row_json(*row, nullptr) : nlohmann::json{{"spec", spec}, {"cuda", nullptr}, {"cudnn", nullptr}};
    j["requested"] = active.spec.str();
    j["origin"] = active.origin_name();
    j["source"] = active.describe();
    std::cout << j.dump(2) << "\n";
}

}  // namespace

void register_current(CLI::App* cmd, Context& ctx) {
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print JSON");
    cmd->callback([&ctx, json] { run_current(ctx, *json); });
}

}  // namespace cudaenv
