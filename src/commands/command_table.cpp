#include "commands/command_table.hpp"

#include <vector>

namespace cudaenv {

namespace {

using A = CommandArg;

// --help's order.
constexpr CommandRow command_rows[] = {
    // name, summary, define, arg, rest, evaluated, reruns_hook, hidden
    {"list", "List installed pairs; * marks the active one", register_list},
    {"current", "Show the active pair and what set it", register_current},
    {"use", "Switch this shell session to a pair (needs `cudaenv init`)", register_use, A::spec, A::none, true},
    {"shell", "Same as use", register_use, A::spec, A::none, true, false, true},
    {"deactivate", "Undo `use`: every variable back to what it was", register_deactivate, A::none, A::none, true,
     true},
    {"local", "Pin this folder (and below) to a pair: writes .cudaenv", register_local, A::spec, A::none, false,
     true},
    {"global", "Show or set the default pair", register_global, A::spec},
    {"env", "Print the code that `use <spec>` evaluates, or the variables as JSON", register_env, A::spec},
    {"init", "Print the shell integration for a shell", register_init, A::shell},
    {"exec", "Run one command inside a pair's environment", register_exec, A::spec, A::file},
    {"which", "Print the absolute path of a tool (nvcc, ...) in the active pair", register_which},
    {"add", "Adopt an existing toolkit or cuDNN folder (it is not copied)", register_add, A::folder},
    {"discover", "Find toolkits and cuDNNs in the usual places", register_discover},
    {"pair", "Pin which cuDNN goes with a toolkit (no arguments: list pins)", register_pair, A::spec},
    {"completions", "Print the completion script for a shell", register_completions, A::shell},
    {"__complete", "Completion candidates for the words typed (what the completion scripts ask)",
     register_complete, A::none, A::none, false, false, true},
    {"__shells", "The shell table: name, extension, OS, completion file (what the build and the tests ask)", register_shells, A::none,
     A::none, false, false, true},
    {"hook-env", "Code for the auto-switch hook of `cudaenv init` (internal)", register_hook_env, A::none, A::none,
     false, false, true},
    {"rehash", "Write a shim in the store's shims folder for every tool of every toolkit", register_rehash},
    {"setup", "Add cudaenv to your shell's profile and the tool shims to PATH (--undo takes it all back)",
     register_setup, A::shell},
    {"install", "Install a toolkit / cuDNN into the store from NVIDIA archives or a redist mirror",
     register_install_forward, A::file},
    {"lock", "Write cudaenv.lock beside .cudaenv: the exact pair, components and archives (size, sha256)",
     register_install_forward},
    {"sync", "Make the store hold exactly the pair of cudaenv.lock and the project use it", register_install_forward},
    {"mirror", "Make (create) or check (verify) an offline mirror in NVIDIA's layout", register_install_forward},
    {"uninstall", "Remove a toolkit / cuDNN from the store (or forget an adopted one)", register_uninstall, A::spec},
    {"check", "Prove pairs work: load every library, versions, a timed convolution", register_check, A::spec,
     A::spec},
    {"doctor", "Diagnose this machine's CUDA set-up: PATH, shadowing cuDNNs, driver, frameworks", register_doctor},
    {"export", "Write pairs for tools that never see a shell: cmake-presets, dotenv, github-env, lmod, tcl, msbuild, cdi; or the lock as a dockerfile",
     register_export, A::format, A::spec},
    {"kernel", "Jupyter kernels that run under a pair: add, list, remove", register_kernel},
    {"trace", "Run a command and report which CUDA/cuDNN libraries it really loads", register_trace, A::spec,
     A::file},
    {"inspect", "The GPU code each library carries and whether it runs on this machine's GPUs", register_inspect,
     A::spec},
};

}  // namespace

std::span<const CommandRow> command_table() { return command_rows; }

const CommandRow* find_command(std::span<const CommandRow> rows, std::string_view name) {
    for (const auto& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

const CommandRow* find_command(std::string_view name) { return find_command(command_rows, name); }

std::span<const CommandInfo> integration_commands() {
    static const std::vector<CommandInfo> infos = [] {
        std::vector<CommandInfo> out;
        for (const auto& r : command_rows) out.push_back({r.name, r.evaluated, r.reruns_hook});
        return out;
    }();
    return infos;
}

}  // namespace cudaenv
