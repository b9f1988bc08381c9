#pragma once
// What the shell integrations need to know about a cudaenv command. The
// commands are one table (src/commands/command_table.cpp); the init scripts
// and session shims get this view of it through InitOptions::commands and
// fill @EVAL_COMMANDS@ and @HOOK_COMMANDS@ from it.
#include <string_view>

namespace cudaenv {

struct CommandInfo {
    std::string_view name;
    bool evaluated = false;    // its output is code the integration evaluates
    bool reruns_hook = false;  // with auto-switch, the hook runs again after it
};

}  // namespace cudaenv
