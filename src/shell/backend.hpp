#pragma once
// The interface every shell's backend implements (bash.cpp, zsh.cpp, ...;
// the shell table, shells.hpp, names them), and what `init` is given. What
// is built on it (render(), the session shims) is in shell.hpp.
#include <span>
#include <string>
#include <string_view>

#include "shell/commands.hpp"

namespace cudaenv {

struct InitOptions {
    std::string exe;    // absolute path of the cudaenv binary (UTF-8)
    std::string shims;  // the store's shims folder (Store::shims_dir(), UTF-8)
    // Switch pairs on directory change (`init --auto-switch`, the default).
    bool auto_switch = true;
    // Every command, from the command table (integration_commands()): the
    // integration evaluates some and re-runs the hook after others.
    std::span<const CommandInfo> commands;
};

class Shell {
public:
    virtual ~Shell() = default;
    virtual std::string_view name() const = 0;
    // A literal that this shell reads back as exactly `value`.
    virtual std::string quote(std::string_view value) const = 0;
    virtual std::string set_var(std::string_view name, std::string_view value) const = 0;
    virtual std::string unset_var(std::string_view name) const = 0;
    // The integration `cudaenv init <shell>` prints.
    virtual std::string init_script(const InitOptions& opts) const = 0;
    // Tab completion for this shell: a generic script that asks
    // `cudaenv __complete` for the candidates (src/commands/complete.cpp).
    virtual std::string completion_script() const = 0;
};

}  // namespace cudaenv
