// cudaenv global [<spec>|--unset]: show or set the default used when no
// CUDAENV_VERSION and no .cudaenv apply.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"

namespace cudaenv {

namespace {

void run_global(Context& ctx, const std::string& spec_text, bool unset) {
    auto& store = ctx.store();
    if (!unset && spec_text.empty()) {
        std::cout << store.config().global.value_or("system") << "\n";
        return;
    }
    auto lock = store.lock();  // keeps what other writers changed meanwhile
    auto& cfg = store.config();
    if (unset) {
        cfg.global.reset();
        store.save_config();
        return;
    }
    auto spec = Spec::parse_or_throw(spec_text);
    if (!spec.system) select_pair(spec, store);
    cfg.global = spec.str();
    store.save_config();
}

}  // namespace

void register_global(CLI::App* cmd, Context& ctx) {
    auto spec = std::make_shared<std::string>();
    auto unset = std::make_shared<bool>(false);
    cmd->add_option("spec", *spec, "The new default");
    cmd->add_flag("--unset", *unset, "Remove the default (system)");
    cmd->callback([&ctx, spec, unset] { run_global(ctx, *spec, *unset); });
}

}  // namespace cudaenv
