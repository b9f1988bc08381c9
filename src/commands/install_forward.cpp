// cudaenv install|lock|sync|mirror ...: runs the cudaenv-install program
// beside this one with the same arguments (see src/main_install.cpp for why
// it is separate): every command that downloads, unpacks or hashes. A sync
// with nothing to do is the exception, answered here.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "install/sync_plan.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

void run_forward(Context& ctx, const std::string& command, const std::vector<std::string>& rest) {
    auto program = platform::required_sibling_program("cudaenv-install", "the installer");
    std::vector<std::string> argv = {fsx::to_utf8(program), command};
    argv.insert(argv.end(), rest.begin(), rest.end());
    auto env = platform::environment();
    // Pass on -v / --log-level, given before the command and so parsed here.
    if (spdlog::get_level() != spdlog::level::warn) {
        std::erase_if(env, [](const auto& kv) { return kv.first == "CUDAENV_LOG"; });
        auto level = spdlog::level::to_string_view(spdlog::get_level());
        env.emplace_back("CUDAENV_LOG", std::string(level.data(), level.size()));
    }
    ctx.exit_code = platform::exec_command(argv, env);
}

// A `sync` with nothing to do is answered here (install/sync_plan.hpp): no
// installer started, none of its shared libraries loaded. Any flag but these
// goes to cudaenv-install, as does every sync with work (or an error) ahead
// (and a usage error: --store-only without --frozen or --locked).
void run_sync(Context& ctx, const std::vector<std::string>& rest) {
    using Mode = install::SyncOptions::Mode;
    auto has = [&](const char* flag) { return std::find(rest.begin(), rest.end(), flag) != rest.end(); };
    bool simple = std::all_of(rest.begin(), rest.end(), [](const std::string& a) {
        return a == "--locked" || a == "--frozen" || a == "-q" || a == "--quiet" || a == "--store-only" ||
               a == "--print-pair";
    });
    if (simple && !(has("--locked") && has("--frozen")) &&
        !(has("--store-only") && !has("--locked") && !has("--frozen"))) {
        auto mode = has("--frozen") ? Mode::frozen : has("--locked") ? Mode::locked : Mode::plain;
        bool print_pair = has("--print-pair");
        if (install::sync_has_nothing_to_do(ctx.store(), ctx.cwd(), mode, print_pair ? std::cerr : std::cout,
                                            has("--store-only"))) {
            if (print_pair) std::cout << install::locked_pair(ctx.cwd(), mode) << "\n";
            return;
        }
    }
    run_forward(ctx, "sync", rest);
}

}  // namespace

// One function for the four rows (install, lock, sync, mirror): the
// subcommand's own name says which command cudaenv-install runs.
void register_install_forward(CLI::App* cmd, Context& ctx) {
    // Every argument, --help included, belongs to cudaenv-install.
    cmd->prefix_command();
    cmd->fallthrough(false);
    cmd->set_help_flag();
    cmd->callback([&ctx, cmd] {
        const auto& name = cmd->get_name();
        if (name == "sync") run_sync(ctx, cmd->remaining());
        else run_forward(ctx, name, cmd->remaining());
    });
}

}  // namespace cudaenv
