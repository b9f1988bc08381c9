#include "shell/shell.hpp"

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

const std::vector<std::string>& shell_names() {
    static const std::vector<std::string> names = {"bash", "zsh", "fish", "pwsh", "powershell", "cmd"};
    return names;
}

std::unique_ptr<Shell> make_shell(std::string_view name) {
    if (name == "bash") return make_bash();
    if (name == "zsh") return make_zsh();
    if (name == "fish") return make_fish();
    if (name == "pwsh" || name == "powershell") return make_pwsh();
    if (name == "cmd") return make_cmd();
    std::string shown(name.substr(0, 40));
    for (auto& c : shown)
        if (static_cast<unsigned char>(c) < 0x20) c = '?';
    throw UsageError("unknown shell '" + shown + "'", "choose one of: bash, zsh, fish, pwsh, powershell, cmd");
}

std::string render(const Shell& shell, const std::vector<EnvChange>& changes) {
    std::string out;
    for (const auto& c : changes) {
        out += c.value ? shell.set_var(c.name, *c.value) : shell.unset_var(c.name);
        out += '\n';
    }
    return out;
}

std::string posix_single_quote(std::string_view value) {
    std::string out = "'";
    for (char c : value) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    out += '\'';
    return out;
}

std::string write_session_shims(const InitOptions& opts) {
    auto dir = fsx::from_utf8(opts.store) / "shims";
    // The .ps1 carries a UTF-8 BOM: Windows PowerShell 5.1 reads a script
    // without one in the ANSI code page and would garble non-ASCII paths.
    fsx::write_file_atomic(dir / "cudaenv.ps1", "\xEF\xBB\xBF" + pwsh_session_shim(opts));
    fsx::write_file_atomic(dir / "cudaenv.cmd", cmd_session_shim(opts));
    return fsx::to_utf8(dir);
}

}  // namespace cudaenv
