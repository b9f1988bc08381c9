#pragma once
// cudaenv's commands, written once: each row names a command, its line in
// --help, the function that defines its options and what it runs (one per
// file in src/commands/), and what the shell integrations and completion must
// know about it. app.cpp registers from this table, `--help` lists it,
// `cudaenv __complete` completes from it, and the init scripts and session
// shims get their command lists from it (integration_commands()).
// ARCHITECTURE.md has the recipe for adding a command.
#include <span>
#include <string_view>
#include <vector>

#include "shell/commands.hpp"

namespace CLI {
class App;
}

namespace cudaenv {

class Context;

// What a positional argument is, for completion (and for the check of a spec
// word before CLI11 parses, src/app.cpp).
enum class CommandArg { none, spec, shell, folder, file, format };

struct CommandRow {
    std::string_view name;
    std::string_view summary;  // its line in --help
    // Adds the command's options and callback to its subcommand `cmd`.
    void (*define)(CLI::App* cmd, Context& ctx);
    CommandArg arg = CommandArg::none;   // its first positional argument
    CommandArg rest = CommandArg::none;  // the ones after it (or a subcommand's)
    // Its output is code: the integration runs it with CUDAENV_SHELL set and
    // evaluates what it prints (the session shims too).
    bool evaluated = false;
    // With auto-switch, the hook runs again right after it (the folder's pair
    // applies again after `deactivate`, a new .cudaenv after `local`).
    bool reruns_hook = false;
    bool hidden = false;  // left out of --help and completion (internal, or another name)
};

// The cudaenv program's commands, in --help's order.
std::span<const CommandRow> command_table();
// The row of `name` in command_table(); nullptr when there is none.
const CommandRow* find_command(std::string_view name);
// The same in `rows`.
const CommandRow* find_command(std::span<const CommandRow> rows, std::string_view name);
// What the init scripts and session shims need: every command's name and
// whether it is evaluated or re-runs the hook.
std::span<const CommandInfo> integration_commands();

// One function per command file (src/commands/<name>.cpp).
void register_list(CLI::App* cmd, Context& ctx);
void register_current(CLI::App* cmd, Context& ctx);
void register_use(CLI::App* cmd, Context& ctx);  // `use` and `shell`
void register_deactivate(CLI::App* cmd, Context& ctx);
void register_local(CLI::App* cmd, Context& ctx);
void register_global(CLI::App* cmd, Context& ctx);
void register_env(CLI::App* cmd, Context& ctx);
void register_init(CLI::App* cmd, Context& ctx);
void register_exec(CLI::App* cmd, Context& ctx);
void register_which(CLI::App* cmd, Context& ctx);
void register_add(CLI::App* cmd, Context& ctx);
void register_discover(CLI::App* cmd, Context& ctx);
void register_pair(CLI::App* cmd, Context& ctx);
void register_completions(CLI::App* cmd, Context& ctx);
void register_complete(CLI::App* cmd, Context& ctx);  // `__complete`, what completion scripts call
void register_shells(CLI::App* cmd, Context& ctx);  // `__shells`, what the build and the tests ask
void register_hook_env(CLI::App* cmd, Context& ctx);
void register_rehash(CLI::App* cmd, Context& ctx);
void register_setup(CLI::App* cmd, Context& ctx);
// The real `install`, `lock`, `sync` and `mirror` live in the cudaenv-install
// program (src/main_install.cpp); in the cudaenv executable their rows run
// one forwarder, which runs that program (commands/install_forward.cpp).
void register_install(CLI::App* cmd, Context& ctx);
void register_lock(CLI::App* cmd, Context& ctx);
void register_sync(CLI::App* cmd, Context& ctx);
void register_mirror(CLI::App* cmd, Context& ctx);
void register_install_forward(CLI::App* cmd, Context& ctx);
void register_uninstall(CLI::App* cmd, Context& ctx);
void register_check(CLI::App* cmd, Context& ctx);
// `__probe`, the child of `check`: only the cudaenv-probe program (src/main_probe.cpp).
void register_probe(CLI::App* cmd, Context& ctx);
void register_doctor(CLI::App* cmd, Context& ctx);
void register_export(CLI::App* cmd, Context& ctx);
void register_kernel(CLI::App* cmd, Context& ctx);
void register_trace(CLI::App* cmd, Context& ctx);
void register_inspect(CLI::App* cmd, Context& ctx);
// `__gpus`, the machine's GPUs and driver: only the cudaenv-probe program (nvidia/probe_gpus).
void register_probe_gpus(CLI::App* cmd, Context& ctx);
// `__environ FILE`, this process's environment as records: only cudaenv-probe (store/msvc, `use --msvc`).
void register_probe_environ(CLI::App* cmd, Context& ctx);

// `row` with another define function: the cudaenv-install program's rows are
// the table's, with the commands themselves instead of the forwarder.
constexpr CommandRow with_define(CommandRow row, void (*define)(CLI::App*, Context&)) {
    row.define = define;
    return row;
}

}  // namespace cudaenv
