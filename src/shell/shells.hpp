#pragma once
// Every fact about a shell, in one table: its names, the extension of its
// files, the line endings it reads, where its start-up profile is, how a
// profile loads the integration, and its backend (src/shell/<name>.cpp).
// Everything shell-specific asks here: `init`, `completions`, `env --shell`,
// `setup`, shell detection, help texts and the completion of shell names.
// ARCHITECTURE.md has the recipe for adding a shell.
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/line_endings.hpp"
#include "platform/profiles.hpp"

namespace cudaenv {

class Shell;

enum class ShellOs { both, posix, windows };

struct ShellInfo {
    std::string_view name;   // what `init`, `completions`, `env --shell` and `setup` take
    std::string_view alias;  // another name it answers to ("powershell"), or ""
    // The extension of its files: shell/<name>/init.<ext> and completion.<ext>,
    // and the lines setup writes, shell/profile/<name>.<ext> and path.<ext>.
    std::string_view ext;
    LineEndings reads;           // what its profile may end lines with (tested in the real shells)
    ShellOs os = ShellOs::both;  // where users run it (cmd exists only on Windows)
    std::unique_ptr<Shell> (*make)() = nullptr;
    // The start-up files it reads; `setup` puts its block there. cmd has
    // none: setup sets its AutoRun (in the registry) instead.
    std::vector<std::filesystem::path> (*profiles)(const platform::ProfileEnv&) = nullptr;
    bool autorun = false;
    // Its `use` works through a session shim in <store>/shims (cudaenv.ps1,
    // cudaenv.cmd), which `init` and `setup` write.
    bool session_shim = false;
    // A profile it creates on Windows starts with a UTF-8 BOM (Windows
    // PowerShell 5.1 reads a file without one in the ANSI code page).
    bool bom_on_windows = false;
    // For help texts: how a profile loads the integration, and which one.
    std::string_view load_line;
    std::string_view profile_shown;
    // Where a package installs its completion script (`completions <name>`),
    // below share/: the shell's own folder for vendor completions; "" when
    // none is packaged (cmd's completion comes with its integration). A
    // package for an OS carries those of the shells that run there.
    std::string_view completion_file;
};

// Every shell, in the order help texts name them.
std::span<const ShellInfo> shells();
// The shell named `name` (or its alias); nullptr when there is none.
const ShellInfo* find_shell(std::string_view name);
// The same, throwing a UsageError that lists the names.
const ShellInfo& shell_info(std::string_view name);
// Every name a shell answers to: "bash", ..., "pwsh", "powershell", "cmd".
std::vector<std::string> shell_names();
// "bash, zsh, fish, pwsh (powershell), cmd" for help texts.
std::string shell_choices();
// Whether users of this OS run `shell` (cmd: Windows only).
bool runs_on(const ShellInfo& shell, bool windows);
// Whether `setup` can set `shell` up on that OS: a Windows shell only on
// Windows, the others everywhere (Git Bash runs bash on Windows too).
bool can_set_up(const ShellInfo& shell, bool windows);
// Whether a profile `setup` creates for `shell` on that OS starts with a UTF-8 BOM.
bool created_with_bom(const ShellInfo& shell, bool windows);

// Backends, one file each (shell.hpp declares Shell); the table names them.
std::unique_ptr<Shell> make_bash();
std::unique_ptr<Shell> make_zsh();
std::unique_ptr<Shell> make_fish();
std::unique_ptr<Shell> make_pwsh();
std::unique_ptr<Shell> make_cmd();

// The backend of `name` (or its alias); throws UsageError for an unknown shell.
std::unique_ptr<Shell> make_shell(std::string_view name);

// The profile files `shell` reads at start-up, as that shell finds them.
// Throws Error when that needs a home folder and there is none (HOME unset):
// a profile must never land in / or under the current folder.
std::vector<std::filesystem::path> profile_paths(const ShellInfo& shell, const platform::ProfileEnv& env);

// The shell a program path names: "bash" for "bash", "/bin/bash", "-bash" (a
// login shell), "pwsh" for "pwsh.exe" and "powershell.exe", "cmd" for
// "cmd.exe"; "" when it names no shell in the table.
std::string shell_from_program(std::string_view path);
// The user's shell: $SHELL on POSIX, else the parent process; "" when unknown.
std::string detect_shell();

}  // namespace cudaenv
