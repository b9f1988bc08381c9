#include "platform/profiles.hpp"

#include <array>
#include <cctype>

#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

ProfileEnv current_profile_env() {
    ProfileEnv e;
    e.windows = is_windows;
    e.home = home_dir();
    e.documents = documents_dir();
    e.xdg_config_home = get_env("XDG_CONFIG_HOME");
    e.zdotdir = get_env("ZDOTDIR");
    return e;
}

std::vector<std::filesystem::path> profile_paths(std::string_view shell, const ProfileEnv& env) {
    auto config_home = [&] {
        if (env.xdg_config_home && !env.xdg_config_home->empty()) {
            const auto& v = *env.xdg_config_home;
            // XDG: a relative value is invalid and ignored. What is absolute
            // depends on the OS given (C:\x only on Windows).
            bool drive = v.size() >= 3 && std::isalpha(static_cast<unsigned char>(v[0])) && v[1] == ':' &&
                         (v[2] == '\\' || v[2] == '/');
            bool absolute = v[0] == '/' || (env.windows && (drive || v[0] == '\\'));
            if (absolute) return fsx::from_utf8(v);
        }
        return env.home / ".config";
    };
    if (shell == "bash") return {env.home / ".bashrc"};
    if (shell == "zsh") return {(env.zdotdir && !env.zdotdir->empty() ? fsx::from_utf8(*env.zdotdir) : env.home) / ".zshrc"};
    if (shell == "fish") return {config_home() / "fish" / "config.fish"};
    if (shell == "pwsh") {
        if (env.windows)
            return {env.documents / "PowerShell" / "Microsoft.PowerShell_profile.ps1",
                    env.documents / "WindowsPowerShell" / "Microsoft.PowerShell_profile.ps1"};
        return {config_home() / "powershell" / "Microsoft.PowerShell_profile.ps1"};
    }
    return {};
}

std::string shell_from_name(std::string_view raw) {
    std::string name(raw);
    // The last path component, with / or \ (a Windows parent may be named either way).
    if (auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
    if (name.starts_with("-")) name.erase(0, 1);  // a login shell
    name = str::to_lower_ascii(name);
    if (name.ends_with(".exe")) name.resize(name.size() - 4);
    static constexpr std::array<std::string_view, 6> known = {"bash", "zsh", "fish", "pwsh", "powershell", "cmd"};
    for (auto s : known)
        if (name == s) return s == "powershell" ? "pwsh" : std::string(s);
    return {};
}

std::string detect_shell() {
    if (!is_windows)
        if (auto sh = get_env("SHELL"); sh)
            if (auto s = shell_from_name(*sh); !s.empty()) return s;
    if (auto parent = parent_process_name())
        if (auto s = shell_from_name(*parent); !s.empty()) return s;
    return {};
}

}  // namespace cudaenv::platform
