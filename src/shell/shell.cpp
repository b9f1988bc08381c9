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

std::string posix_cudaenv_function(std::string_view shell, bool auto_switch) {
    std::string out =
        "cudaenv() {\n"
        "  case \"${1-}\" in\n"
        "    use|shell|deactivate)\n"
        "      local __cudaenv_code\n"
        "      __cudaenv_code=\"$(CUDAENV_SHELL=" + std::string(shell) + " \"$__cudaenv_bin\" \"$@\")\" || return\n"
        "      eval \"$__cudaenv_code\"\n"
        "      ;;\n"
        "    *) \"$__cudaenv_bin\" \"$@\" || return ;;\n"
        "  esac\n";
    if (auto_switch)
        // After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
        out += "  case \"${1-}\" in deactivate|local) __cudaenv_key=; __cudaenv_hook ;; esac\n";
    return out + "}\n";
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

std::string posix_autoswitch_hook(std::string_view shell) {
    // The key is "k", then for every version file that can decide the pair
    // here (the nearest .cudaenv and any .tool-versions below it) its path and
    // its first 32 lines. Files are only read into a string and compared;
    // nothing in them is ever evaluated. `[`, `read`, $(( )) and ${d%/*} are
    // builtins, so an unchanged key costs no process at all.
    const std::string sh(shell);
    return "__cudaenv_read() {\n"
           "  local __ce_line __ce_i=0\n"
           "  while [ \"$__ce_i\" -lt 32 ] && { IFS= read -r __ce_line || [ -n \"$__ce_line\" ]; }; do\n"
           "    __ce_k+=\"$__ce_line\"$'\\n'\n"
           "    case \"$__ce_line\" in *cuda*) __ce_hit=1 ;; esac\n"
           "    __ce_i=$((__ce_i + 1))\n"
           "  done 2>/dev/null < \"$1\"\n"
           "}\n"
           "__cudaenv_hook() {\n"
           "  local __ce_rc=$?\n"
           "  # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.\n"
           "  if [ -z \"${CUDAENV_VERSION-}\" ]; then\n"
           "    local __ce_d=\"${PWD%/}\" __ce_k=k __ce_hit= __ce_code\n"
           "    while :; do\n"
           "      if [ -f \"$__ce_d/.cudaenv\" ]; then\n"
           "        __ce_k+=$'\\n'\"$__ce_d/.cudaenv\"$'\\n'\n"
           "        __cudaenv_read \"$__ce_d/.cudaenv\"\n"
           "        __ce_hit=1\n"
           "        break\n"
           "      fi\n"
           "      if [ -f \"$__ce_d/.tool-versions\" ]; then\n"
           "        __ce_k+=$'\\n'\"$__ce_d/.tool-versions\"$'\\n'\n"
           "        __cudaenv_read \"$__ce_d/.tool-versions\"\n"
           "      fi\n"
           "      [ -z \"$__ce_d\" ] && break\n"
           "      __ce_d=\"${__ce_d%/*}\"\n"
           "    done\n"
           "    if [ \"$__ce_k\" != \"${__cudaenv_key-}\" ]; then\n"
           "      __cudaenv_key=\"$__ce_k\"\n"
           "      # With no .cudaenv and no .tool-versions that mentions cuda, and\n"
           "      # nothing active, there is nothing to do.\n"
           "      if [ -n \"$__ce_hit\" ] || [ -n \"${__CUDAENV_STATE-}\" ]; then\n"
           "        __ce_code=\"$(CUDAENV_SHELL=" + sh + " \"$__cudaenv_bin\" hook-env)\" && eval \"$__ce_code\"\n"
           "      fi\n"
           "    fi\n"
           "  fi\n"
           "  return \"$__ce_rc\"\n"
           "}\n";
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
