// cudaenv current [--json]: the active pair and what set it.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_current(Context& ctx, bool json) {
    auto active = ctx.active();
    std::optional<Pair> pair;
    if (!active.spec.system) {
        try {
            pair = select_pair(active.spec, ctx.store());
        } catch (const Error& e) {
            throw Error(std::string(e.what()) + " (set by " + active.describe() + ")", e.hint());
        }
    }
    if (json) {
        nlohmann::json j{{"spec", pair ? pair->spec() : "system"},
                         {"requested", active.spec.str()},
                         {"origin", active.origin_name()},
                         {"source", active.describe()},
                         {"cuda", nullptr},
                         {"cudnn", nullptr}};
        if (pair) {
            j["cuda"] = {{"version", pair->toolkit.version.str()}, {"path", fsx::to_utf8(pair->toolkit.path)}};
            if (pair->cudnn)
                j["cudnn"] = {{"version", pair->cudnn->version.str()}, {"path", fsx::to_utf8(pair->cudnn->path)}};
        }
        std::cout << j.dump(2) << "\n";
        return;
    }
    std::cout << (pair ? pair->spec() : std::string("system")) << " (set by " << active.describe() << ")\n";
}

}  // namespace

void register_current(CLI::App* cmd, Context& ctx) {
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print JSON");
    cmd->callback([&ctx, json] { run_current(ctx, *json); });
}

}  // namespace cudaenv
