#pragma once
// One backend per shell behind this interface. Commands never write shell
// syntax themselves: they hand an EnvDiff to render(), and every value goes
// through the backend's quote(), which follows that shell's own rules.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/activation.hpp"
#include "shell/commands.hpp"
#include "shell/shells.hpp"
#include "shell/template.hpp"

namespace cudaenv {

struct InitOptions {
    std::string exe;    // absolute path of the cudaenv binary (UTF-8)
    std::string store;  // the store root (UTF-8)
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

// The code that applies what `diff` changes in the environment it was
// planned in, one statement per line.
std::string render(const Shell& shell, const EnvDiff& diff);

// Backends, one file each; the shell table (shells.hpp) names them.
std::unique_ptr<Shell> make_bash();
std::unique_ptr<Shell> make_zsh();
std::unique_ptr<Shell> make_fish();
std::unique_ptr<Shell> make_pwsh();
std::unique_ptr<Shell> make_cmd();

// Quoting shared by the POSIX-family backends: '...' with ' as '\''.
std::string posix_single_quote(std::string_view value);

class TemplateArgs;
// The placeholders every integration template uses (shell/*/init.*, the
// session shims): @CUDAENV_EXE@, @SHELL@, @READ_BYTES@, @EVAL_COMMANDS@ and
// @HOOK_COMMANDS@ (from opts.commands, joined by `list_sep`), and the
// flags AUTO_SWITCH and the shell's name in capitals (e.g. ZSH).
TemplateArgs integration_args(const Shell& shell, const InitOptions& opts, std::string_view list_sep);

// The session shims for PowerShell and cmd (<store>/shims/cudaenv.ps1 and
// cudaenv.cmd): they call the binary and apply its output to the calling
// session, so `cudaenv use` works once that folder is on PATH.
std::string pwsh_session_shim(const InitOptions& opts);
std::string cmd_session_shim(const InitOptions& opts);
// Writes both shims (atomically); returns the shims folder.
std::string write_session_shims(const InitOptions& opts);

}  // namespace cudaenv
