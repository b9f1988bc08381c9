// PowerShell (7 and Windows PowerShell 5.1): single-quoted literals, in which
// PowerShell also treats the typographic quotes U+2018..U+201B as quotes, so
// each of them is doubled like '. No 7-only syntax (??, &&, ternaries).
#include "shell/shell.hpp"

#include "util/strings.hpp"

namespace cudaenv {

namespace {

std::string ps_quote(std::string_view v) {
    std::string out = "'";
    for (size_t i = 0; i < v.size(); ++i) {
        // U+2018..U+201B are E2 80 98..9B in UTF-8.
        if (i + 2 < v.size() && static_cast<unsigned char>(v[i]) == 0xE2 && static_cast<unsigned char>(v[i + 1]) == 0x80 &&
            static_cast<unsigned char>(v[i + 2]) >= 0x98 && static_cast<unsigned char>(v[i + 2]) <= 0x9B) {
            out.append(v.substr(i, 3));
            out.append(v.substr(i, 3));
            i += 2;
            continue;
        }
        if (v[i] == '\'') out += '\'';
        out += v[i];
    }
    return out + "'";
}

// The body shared by the profile function and the cudaenv.ps1 shim: runs the
// binary with CUDAENV_SHELL=pwsh, reads its output as UTF-8, and evaluates
// it only when the binary succeeded. `args` is the argument array's name;
// `bail` leaves early (return in a function, exit in a script).
std::string apply_block(const std::string& exe_literal, const std::string& args, const std::string& indent,
                        const std::string& bail) {
    const std::string& i = indent;
    return i + "$__ce_sub = ''\n" +
           i + "if (" + args + ".Count -gt 0) { $__ce_sub = [string]" + args + "[0] }\n" +
           i + "if ($__ce_sub -eq 'use' -or $__ce_sub -eq 'shell' -or $__ce_sub -eq 'deactivate') {\n" +
           i + "    $__ce_enc = [Console]::OutputEncoding\n" +
           i + "    $env:CUDAENV_SHELL = 'pwsh'\n" +
           i + "    try {\n" +
           i + "        try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }\n" +
           i + "        $__ce_code = & " + exe_literal + " @" + args.substr(1) + "\n" +
           i + "        $__ce_status = $LASTEXITCODE\n" +
           i + "    } finally {\n" +
           i + "        try { [Console]::OutputEncoding = $__ce_enc } catch { }\n" +
           i + "        Remove-Item Env:CUDAENV_SHELL -ErrorAction SilentlyContinue\n" +
           i + "    }\n" +
           i + "    if ($__ce_status -ne 0) { $global:LASTEXITCODE = $__ce_status; " + bail + " }\n" +
           i + "    if ($__ce_code) { Invoke-Expression ($__ce_code -join \"`n\") }\n" +
           i + "    $global:LASTEXITCODE = 0\n" +
           i + "} else {\n" +
           i + "    & " + exe_literal + " @" + args.substr(1) + "\n" +
           i + "}\n";
}

class Pwsh : public Shell {
public:
    std::string_view name() const override { return "pwsh"; }
    std::string quote(std::string_view v) const override { return ps_quote(v); }
    std::string set_var(std::string_view n, std::string_view v) const override {
        // Assigning '' to $env:X removes X in PowerShell; SetEnvironmentVariable keeps
        // the difference between empty and unset where the platform has one.
        if (v.empty()) return "[System.Environment]::SetEnvironmentVariable(" + quote(n) + ", '')";
        return "$env:" + std::string(n) + " = " + quote(v);
    }
    std::string unset_var(std::string_view n) const override {
        return "Remove-Item -LiteralPath " + quote("Env:" + std::string(n)) + " -ErrorAction SilentlyContinue";
    }

    std::string init_script(const InitOptions& o) const override {
        return "# cudaenv shell integration for PowerShell. Add to $PROFILE:\n"
               "#   Invoke-Expression (& cudaenv init pwsh | Out-String)\n"
               "function global:cudaenv {\n" +
               apply_block(quote(o.exe), "$args", "    ", "return") + "}\n";
    }

    std::string completion_script(const std::vector<std::string>& commands) const override {
        std::string list;
        for (const auto& c : commands) list += (list.empty() ? "" : ", ") + quote(c);
        return "# cudaenv completion for PowerShell\n"
               "Register-ArgumentCompleter -Native -CommandName cudaenv -ScriptBlock {\n"
               "    param($wordToComplete, $commandAst, $cursorPosition)\n"
               "    $words = @($commandAst.CommandElements | ForEach-Object { $_.ToString() })\n"
               "    $candidates = @()\n"
               "    if ($words.Count -le 1 -or ($words.Count -eq 2 -and $wordToComplete -ne '')) {\n"
               "        $candidates = @(" + list + ")\n"
               "    } elseif (@('use','shell','local','global','env','exec','uninstall','check','pair') -contains $words[1]) {\n"
               "        $candidates = @('system') + @(& cudaenv list --bare 2>$null)\n"
               "    } elseif (@('init','completions') -contains $words[1]) {\n"
               "        $candidates = @('bash','zsh','fish','pwsh','powershell','cmd')\n"
               "    }\n"
               "    $candidates | Where-Object { $_ -like \"$wordToComplete*\" } | ForEach-Object {\n"
               "        [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)\n"
               "    }\n"
               "}\n";
    }
};

}  // namespace

std::unique_ptr<Shell> make_pwsh() { return std::make_unique<Pwsh>(); }

std::string pwsh_session_shim(const InitOptions& o) {
    return "# cudaenv session shim for PowerShell (generated; do not edit).\n"
           "# With this folder first on PATH, `cudaenv use 12.4` changes the calling session.\n" +
           apply_block(ps_quote(o.exe), "$args", "", "exit $__ce_status") + "exit $LASTEXITCODE\n";
}

}  // namespace cudaenv
