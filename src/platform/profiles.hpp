#pragma once
// Where each shell reads its start-up profile, and which shell the user runs.
// The rules take the OS and the folders as data (ProfileEnv), so the Windows
// rules are unit-tested on Linux too.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv::platform {

struct ProfileEnv {
    bool windows = false;
    std::filesystem::path home;
    std::filesystem::path documents;      // Windows: the Documents shell folder (may be in OneDrive)
    std::optional<std::string> xdg_config_home;  // $XDG_CONFIG_HOME (used only when absolute)
    std::optional<std::string> zdotdir;          // $ZDOTDIR
};

// This process's view: the OS it runs on, $HOME, $XDG_CONFIG_HOME, $ZDOTDIR, Documents.
ProfileEnv current_profile_env();

// The profile files `shell` (bash, zsh, fish, pwsh) reads at start-up, as that
// shell finds them: ~/.bashrc; ${ZDOTDIR:-~}/.zshrc; ${XDG_CONFIG_HOME:-~/.config}/fish/config.fish;
// pwsh's $PROFILE (CurrentUserCurrentHost), on Windows for PowerShell 7 and 5.1.
// cmd has none (its AutoRun is in the registry): empty.
std::vector<std::filesystem::path> profile_paths(std::string_view shell, const ProfileEnv& env);

// "bash" for "bash", "/bin/bash", "-bash" (a login shell), "pwsh.exe",
// "powershell.exe" ("pwsh"), "cmd.exe"; "" when it names no shell cudaenv knows.
std::string shell_from_name(std::string_view name);

// The user's shell: $SHELL on POSIX, else the parent process; "" when unknown.
std::string detect_shell();

}  // namespace cudaenv::platform
