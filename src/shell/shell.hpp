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
#include "shell/backend.hpp"
#include "shell/commands.hpp"
#include "shell/shells.hpp"

namespace cudaenv {

// The code that applies what `diff` changes in the environment it was
// planned in, one statement per line.
std::string render(const Shell& shell, const EnvDiff& diff);

// Quoting shared by the POSIX-family backends: '...' with ' as '\''.
std::string posix_single_quote(std::string_view value);

class TemplateArgs;
// The placeholders every integration template uses (shell/*/init.*, the
// session shims): @CUDAENV_EXE@, @SHELL@, @READ_BYTES@ (@READ_BYTES_UTF16@
// for a UTF-16 file), @EVAL_COMMANDS@ and
// @HOOK_COMMANDS@ (from opts.commands, joined by `list_sep`), and the
// flags AUTO_SWITCH and the shell's name in capitals (e.g. ZSH).
TemplateArgs integration_args(const Shell& shell, const InitOptions& opts, std::string_view list_sep);

// The session shims for PowerShell and cmd (cudaenv.ps1 and cudaenv.cmd in
// the store's shims folder): they call the binary and apply its output to the
// calling session, so `cudaenv use` works once that folder is on PATH.
std::string pwsh_session_shim(const InitOptions& opts);
std::string cmd_session_shim(const InitOptions& opts);
inline constexpr std::string_view cmd_session_shim_file = "cudaenv.cmd";
struct SessionShimFile {
    std::string name;   // in opts.shims
    std::string bytes;  // exactly what is written
};
// Both shims as they are written (the .ps1 with its byte order mark).
std::vector<SessionShimFile> session_shim_files(const InitOptions& opts);
// Writes both shims (atomically); returns the shims folder.
std::string write_session_shims(const InitOptions& opts);

}  // namespace cudaenv
