#include "shell/commands.hpp"

namespace cudaenv {

namespace {

constexpr CommandArg spec = CommandArg::spec;

// name, evaluated, reruns_hook, arg, hidden
constexpr CommandInfo table[] = {
    {"use", true, false, spec, false},
    {"shell", true, false, spec, true},  // `use` under its other name
    {"deactivate", true, true, CommandArg::none, false},
    {"local", false, true, spec, false},
    {"global", false, false, spec, false},
    {"env", false, false, spec, false},
    {"exec", false, false, spec, false},
    {"uninstall", false, false, spec, false},
    {"check", false, false, spec, false},
    {"pair", false, false, spec, false},
    {"init", false, false, CommandArg::shell, false},
    {"completions", false, false, CommandArg::shell, false},
    {"add", false, false, CommandArg::folder, false},
    {"discover", false, false, CommandArg::folder, false},
    {"trace", false, false, spec, false},
    {"inspect", false, false, spec, false},
    {"hook-env", false, false, CommandArg::none, true},
    {"list", false, false, CommandArg::none, false},
    {"current", false, false, CommandArg::none, false},
    {"which", false, false, CommandArg::none, false},
    {"rehash", false, false, CommandArg::none, false},
    {"setup", false, false, CommandArg::none, false},
    {"install", false, false, CommandArg::none, false},
    {"lock", false, false, CommandArg::none, false},
    {"sync", false, false, CommandArg::none, false},
    {"mirror", false, false, CommandArg::none, false},
    {"doctor", false, false, CommandArg::none, false},
    {"export", false, false, CommandArg::none, false},
    {"kernel", false, false, CommandArg::none, false},
};

}  // namespace

std::span<const CommandInfo> command_table() { return table; }

std::vector<std::string> commands_where(bool (*pred)(const CommandInfo&)) {
    std::vector<std::string> out;
    for (const auto& c : table)
        if (pred(c)) out.emplace_back(c.name);
    return out;
}

bool command_hidden(std::string_view name) {
    for (const auto& c : table)
        if (c.name == name) return c.hidden;
    return false;
}

bool command_takes(std::string_view name, CommandArg arg) {
    for (const auto& c : table)
        if (c.name == name) return c.arg == arg;
    return false;
}

}  // namespace cudaenv
