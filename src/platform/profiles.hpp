#pragma once
// What the profile rules of each shell (src/shell/shells.cpp) read from the
// OS, as data: so the Windows rules are unit-tested on Linux too.
#include <filesystem>
#include <optional>
#include <string>

namespace cudaenv::platform {

struct ProfileEnv {
    bool windows = false;
    std::filesystem::path home;       // empty when HOME (USERPROFILE) is unset or not absolute
    std::filesystem::path documents;  // Windows: the Documents shell folder (may be in OneDrive)
    std::optional<std::string> xdg_config_home;  // $XDG_CONFIG_HOME (used only when absolute)
    std::optional<std::string> zdotdir;          // $ZDOTDIR
};

// This process's view: the OS it runs on, $HOME, $XDG_CONFIG_HOME, $ZDOTDIR, Documents.
ProfileEnv current_profile_env();

}  // namespace cudaenv::platform
