#pragma once
// The user's own persistent settings outside any profile file, for
// `cudaenv setup`: on Windows the user environment (HKCU\Environment, never
// the machine one, never admin), cmd's AutoRun value and the Documents
// folder; everywhere, the name of the process that started us.
#include <filesystem>
#include <optional>
#include <string>

#include "platform/platform.hpp"

namespace cudaenv::platform {

// Whether the OS keeps a user environment (Windows: HKCU\Environment, with the
// user's PATH, and cmd's AutoRun): `setup` puts the shims folder on that PATH
// instead of into each profile, and `setup --install` copies cudaenv there.
inline constexpr bool has_user_environment = is_windows;

struct UserEnvValue {
    std::string value;        // UTF-8, unexpanded (%USERPROFILE% stays as written)
    bool expandable = false;  // REG_EXPAND_SZ
};

// HKCU\Environment\<name>. POSIX has no such store: read gives nullopt and
// write/remove throw Error.
std::optional<UserEnvValue> user_env_read(const std::string& name);
void user_env_write(const std::string& name, const UserEnvValue& value);
void user_env_remove(const std::string& name);
// Tells running programs (Explorer, new terminals) that the user environment
// changed: WM_SETTINGCHANGE "Environment". No-op on POSIX.
void broadcast_environment_change();

// HKCU\Software\Microsoft\Command Processor\AutoRun (Windows; POSIX: nullopt / throws).
// cmd expands a REG_EXPAND_SZ AutoRun, so the type is the user's and is kept.
std::optional<UserEnvValue> cmd_autorun_read();
// nullopt removes the value.
void cmd_autorun_write(const std::optional<UserEnvValue>& value);
// Whether HKCU\Software\Microsoft\Command Processor exists (Windows creates
// it for most users, not all), and removing it again when it holds nothing.
bool cmd_processor_key_exists();
void cmd_processor_key_remove_if_empty();

// The user's Documents folder (Windows: the shell folder, which may be
// redirected to OneDrive; POSIX: ~/Documents).
std::filesystem::path documents_dir();

// The executable name of the parent process ("bash", "pwsh.exe"), if known.
std::optional<std::string> parent_process_name();

}  // namespace cudaenv::platform
