// cudaenv env <spec> --shell <sh> [--json]: print the code `use` evaluates,
// or the variables as JSON, without changing anything.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

void run_env(Context& ctx, const std::string& spec, const std::string& shell_name, bool json) {
    if (!json && shell_name.empty())
        throw UsageError("`cudaenv env` needs --shell <sh> or --json", "e.g. cudaenv env 12.4 --shell bash");
    std::unique_ptr<Shell> shell;
    if (!json) shell = make_shell(shell_name);
    auto plan = ctx.plan_for(spec);
    if (json) {
        std::cout << plan.json() << "\n";
        return;
    }
    std::cout << render(*shell, plan.diff);
}

}  // namespace

void register_env(CLI::App* cmd, Context& ctx) {
    auto spec = std::make_shared<std::string>();
    auto shell = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    cmd->add_option("spec", *spec, "The pair")->required();
    cmd->add_option("--shell", *shell, "One of " + shell_choices());
    cmd->add_flag("--json", *json, "Print {\"set\": {...}, \"unset\": [...]}");
    cmd->callback([&ctx, spec, shell, json] { run_env(ctx, *spec, *shell, *json); });
}

}  // namespace cudaenv
