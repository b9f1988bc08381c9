#pragma once
// `cudaenv setup [<shell>] [--undo] [--install [DIR]]`: one-step set-up
// (commands/setup.cpp parses, this does the work). Puts the init line into
// the shell's profile once (a marked block), the shims folder on PATH
// (POSIX: in that block; Windows: the user's PATH in HKCU, never the
// machine's, never admin), and for cmd the user's AutoRun. Windows
// `--install` first copies the programs to %LOCALAPPDATA%\Programs\cudaenv.
// `--python` puts the DLL hook into one Python environment instead.
// What it changed is kept in the store's setup.toml (setup/setup_record),
// and --undo takes back exactly that (setup/setup_actions).
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "setup/setup_actions.hpp"
#include "shell/commands.hpp"

namespace cudaenv {

class Store;

struct SetupRequest {
    std::string shell;                   // "": the shell detected (with --undo: every shell)
    bool undo = false;
    std::optional<std::string> install;  // Windows --install [DIR]; "" for the default folder
    std::optional<std::string> python;   // --python <interpreter or venv>: the DLL hook (setup/python_hook)
    std::span<const CommandInfo> commands;  // the command table's, for the integrations written
};

// Checks the request's words before anything else is read (UsageError) and
// names its shell by its table name (powershell: pwsh).
void check_setup_request(SetupRequest& request);
// Sets up (or undoes) what `request` (checked) asks, recording it in the store's setup.toml.
void run_setup(Store& store, const SetupRequest& request);

// Undoes what `s.record` says setup changed, for `shell` or (all) every one;
// reports each change it cannot take back and goes on, then throws.
void undo_setup(Store& store, SetupSession& s, const std::string& shell, bool all,
                std::span<const CommandInfo> commands);

// The programs `--install` copies (cudaenv first).
const std::vector<std::string>& program_names();
// The programs, and the files of the private folder beside them (the zip's
// and the build tree's lib/cudaenv: zlibwapi.dll), as paths under `from`.
std::vector<std::string> files_to_install(const std::filesystem::path& from);
// The line cmd's AutoRun runs for `exe`.
std::string autorun_line(const std::string& exe, Store& store, std::span<const CommandInfo> commands);

}  // namespace cudaenv
