#pragma once
// What the shell integrations need to know about cudaenv's commands, written
// once: the init scripts, the session shims and the completions of every
// shell are generated from this table (shell/*/ use @EVAL_COMMANDS@, ...).
// Every command is listed (src/app.cpp binds each name to its register_*
// function; a unit test keeps the two in step).
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

enum class CommandArg { none, spec, shell, folder };  // what its first argument is, for completion

struct CommandInfo {
    std::string_view name;
    // Its output is code: the integration runs it with CUDAENV_SHELL set and
    // evaluates what it prints (the session shims too).
    bool evaluated = false;
    // With auto-switch, the hook runs again right after it (the folder's pair
    // applies again after `deactivate`, a new .cudaenv after `local`).
    bool reruns_hook = false;
    CommandArg arg = CommandArg::none;
    // Left out of --help and completion (internal to the integrations).
    bool hidden = false;
};

std::span<const CommandInfo> command_table();

// The names of the listed commands for which `pred` holds, in table order.
std::vector<std::string> commands_where(bool (*pred)(const CommandInfo&));
bool command_hidden(std::string_view name);
// What a command's first argument is (none for a name not in the table).
bool command_takes(std::string_view name, CommandArg arg);

}  // namespace cudaenv
