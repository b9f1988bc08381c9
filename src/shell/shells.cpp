#include "shell/shells.hpp"

#include <cctype>

#include "shell/backend.hpp"
#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;
using platform::ProfileEnv;

// The home folder a profile is under; an error without one (HOME unset):
// ~/.bashrc would become /.bashrc, or a path under the current folder.
const fs::path& need_home(const ProfileEnv& env, std::string_view shell) {
    if (env.home.empty())
        throw Error("cannot tell where " + std::string(shell) + "'s profile is: " +
                        (env.windows ? "USERPROFILE" : "HOME") + " is not set",
                    "set it to your home folder and run the command again");
    return env.home;
}

// ${XDG_CONFIG_HOME:-~/.config}. XDG: a relative value is invalid and ignored;
// what is absolute depends on the OS given (C:\x only on Windows).
fs::path config_home(const ProfileEnv& env, std::string_view shell) {
    if (env.xdg_config_home && !env.xdg_config_home->empty()) {
        const auto& v = *env.xdg_config_home;
        bool drive = v.size() >= 3 && std::isalpha(static_cast<unsigned char>(v[0])) && v[1] == ':' &&
                     (v[2] == '\\' || v[2] == '/');
        if (v[0] == '/' || (env.windows && (drive || v[0] == '\\'))) return fsx::from_utf8(v);
    }
    return need_home(env, shell) / ".config";
}

std::vector<fs::path> bash_profiles(const ProfileEnv& env) { return {need_home(env, "bash") / ".bashrc"}; }

std::vector<fs::path> zsh_profiles(const ProfileEnv& env) {
    if (env.zdotdir && !env.zdotdir->empty()) return {fsx::from_utf8(*env.zdotdir) / ".zshrc"};
    return {need_home(env, "zsh") / ".zshrc"};
}

std::vector<fs::path> fish_profiles(const ProfileEnv& env) {
    return {config_home(env, "fish") / "fish" / "config.fish"};
}

// $PROFILE (CurrentUserCurrentHost); on Windows for PowerShell 7 and 5.1.
std::vector<fs::path> pwsh_profiles(const ProfileEnv& env) {
    const fs::path file = "Microsoft.PowerShell_profile.ps1";
    if (env.windows) {
        if (env.documents.empty())
            throw Error("cannot tell where pwsh's profile is: the Documents folder is not known",
                        "set USERPROFILE to your home folder and run the command again");
        return {env.documents / "PowerShell" / file, env.documents / "WindowsPowerShell" / file};
    }
    return {config_home(env, "pwsh") / "powershell" / file};
}

std::vector<fs::path> no_profiles(const ProfileEnv&) { return {}; }

constexpr LineEndings lf_only{}, lf_crlf{true, false}, all_endings{true, true};

// Every field of every row is given: a new field must be thought about for every shell.
const ShellInfo table[] = {
    {.name = "bash", .alias = "", .ext = "bash", .reads = lf_only, .os = ShellOs::posix, .make = make_bash,
     .profiles = bash_profiles, .autorun = false, .session_shim = false, .bom_on_windows = false,
     .load_line = "eval \"$(cudaenv init bash)\"", .profile_shown = "~/.bashrc",
     .completion_file = "bash-completion/completions/cudaenv"},
    {.name = "zsh", .alias = "", .ext = "zsh", .reads = lf_only, .os = ShellOs::posix, .make = make_zsh,
     .profiles = zsh_profiles, .autorun = false, .session_shim = false, .bom_on_windows = false,
     .load_line = "eval \"$(cudaenv init zsh)\"", .profile_shown = "${ZDOTDIR:-~}/.zshrc",
     .completion_file = "zsh/vendor-completions/_cudaenv"},
    {.name = "fish", .alias = "", .ext = "fish", .reads = lf_crlf, .os = ShellOs::posix, .make = make_fish,
     .profiles = fish_profiles, .autorun = false, .session_shim = false, .bom_on_windows = false,
     .load_line = "cudaenv init fish | source", .profile_shown = "~/.config/fish/config.fish",
     .completion_file = "fish/vendor_completions.d/cudaenv.fish"},
    {.name = "pwsh", .alias = "powershell", .ext = "ps1", .reads = all_endings, .os = ShellOs::both,
     .make = make_pwsh, .profiles = pwsh_profiles, .autorun = false, .session_shim = true, .bom_on_windows = true,
     .load_line = "Invoke-Expression (& cudaenv init pwsh | Out-String)", .profile_shown = "$PROFILE",
     .completion_file = "cudaenv/cudaenv-completion.ps1"},
    {.name = "cmd", .alias = "", .ext = "cmd", .reads = all_endings, .os = ShellOs::windows, .make = make_cmd,
     .profiles = no_profiles, .autorun = true, .session_shim = true, .bom_on_windows = false,
     .load_line = "the line `cudaenv init cmd` prints",
     .profile_shown = "cmd's AutoRun (HKCU\\Software\\Microsoft\\Command Processor)", .completion_file = ""},
};

}  // namespace

std::span<const ShellInfo> shells() { return table; }

const ShellInfo* find_shell(std::string_view name) {
    for (const auto& s : table)
        if (name == s.name || (!s.alias.empty() && name == s.alias)) return &s;
    return nullptr;
}

const ShellInfo& shell_info(std::string_view name) {
    if (const auto* s = find_shell(name)) return *s;
    throw UsageError("unknown shell '" + str::visible(name.substr(0, 40)) + "'", "choose one of: " + shell_choices());
}

std::vector<std::string> shell_names() {
    std::vector<std::string> out;
    for (const auto& s : table) {
        out.emplace_back(s.name);
        if (!s.alias.empty()) out.emplace_back(s.alias);
    }
    return out;
}

std::string shell_choices() {
    std::string out;
    for (const auto& s : table) {
        if (!out.empty()) out += ", ";
        out += s.name;
        if (!s.alias.empty()) out += " (" + std::string(s.alias) + ")";
    }
    return out;
}

bool runs_on(const ShellInfo& shell, bool windows) {
    return shell.os == ShellOs::both || (shell.os == ShellOs::windows) == windows;
}

bool can_set_up(const ShellInfo& shell, bool windows) { return shell.os != ShellOs::windows || windows; }

bool created_with_bom(const ShellInfo& shell, bool windows) { return shell.bom_on_windows && windows; }

std::unique_ptr<Shell> make_shell(std::string_view name) { return shell_info(name).make(); }

std::vector<fs::path> profile_paths(const ShellInfo& shell, const ProfileEnv& env) { return shell.profiles(env); }

std::string shell_from_program(std::string_view path) {
    std::string name(path);
    // The last path component, with / or \ (a Windows parent may be named either way).
    if (auto slash = name.find_last_of("/\\"); slash != std::string::npos) name.erase(0, slash + 1);
    if (name.starts_with("-")) name.erase(0, 1);  // a login shell
    name = str::to_lower_ascii(name);
    if (name.ends_with(".exe")) name.resize(name.size() - 4);
    const auto* s = find_shell(name);
    return s ? std::string(s->name) : std::string();
}

std::string detect_shell() {
    if (auto sh = platform::login_shell())
        if (auto s = shell_from_program(*sh); !s.empty()) return s;
    if (auto parent = platform::parent_process_name())
        if (auto s = shell_from_program(*parent); !s.empty()) return s;
    return {};
}

}  // namespace cudaenv
