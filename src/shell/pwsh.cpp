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

// Auto-switch. The key is "k", then for every version file that can decide
// the pair here (the nearest .cudaenv and any .tool-versions below it) its
// path and first 32 lines, read with .NET only: an unchanged key starts no
// process, and a file's content is only compared, never evaluated. PowerShell
// 7 calls the hook from LocationChangedAction (chained with any existing
// handler); Windows PowerShell 5.1 has none, so there the prompt function is
// wrapped. `cd` is never aliased or wrapped.
std::string autoswitch(const std::string& exe_literal) {
    return "function global:__cudaenv_read([string]$Path) {\n"
           "    $r = $null\n"
           "    try {\n"
           "        $r = New-Object System.IO.StreamReader -ArgumentList $Path\n"
           "        $sb = New-Object System.Text.StringBuilder\n"
           "        for ($i = 0; $i -lt 32; $i++) {\n"
           "            $line = $r.ReadLine()\n"
           "            if ($null -eq $line) { break }\n"
           "            [void]$sb.Append($line).Append(\"`n\")\n"
           "        }\n"
           "        return $sb.ToString()\n"
           "    } catch {\n"
           "        return ''\n"
           "    } finally {\n"
           "        if ($r) { $r.Dispose() }\n"
           "    }\n"
           "}\n"
           "function global:__cudaenv_hook {\n"
           "    # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.\n"
           "    if ($env:CUDAENV_VERSION) { return }\n"
           "    $loc = $ExecutionContext.SessionState.Path.CurrentFileSystemLocation\n"
           "    if (-not $loc) { return }\n"
           "    $dir = $loc.ProviderPath\n"
           "    $key = New-Object System.Text.StringBuilder\n"
           "    [void]$key.Append('k')\n"
           "    $hit = $false\n"
           "    while ($dir) {\n"
           "        $f = [System.IO.Path]::Combine($dir, '.cudaenv')\n"
           "        if ([System.IO.File]::Exists($f)) {\n"
           "            [void]$key.Append(\"`n\").Append($f).Append(\"`n\").Append((__cudaenv_read $f))\n"
           "            $hit = $true\n"
           "            break\n"
           "        }\n"
           "        $f = [System.IO.Path]::Combine($dir, '.tool-versions')\n"
           "        if ([System.IO.File]::Exists($f)) {\n"
           "            $c = __cudaenv_read $f\n"
           "            if ($c.IndexOf('cuda', [System.StringComparison]::OrdinalIgnoreCase) -ge 0) { $hit = $true }\n"
           "            [void]$key.Append(\"`n\").Append($f).Append(\"`n\").Append($c)\n"
           "        }\n"
           "        $dir = [System.IO.Path]::GetDirectoryName($dir)\n"
           "    }\n"
           "    $k = $key.ToString()\n"
           "    if ($k -ceq $global:__cudaenv_key) { return }\n"
           "    $global:__cudaenv_key = $k\n"
           "    # With no .cudaenv and no .tool-versions that mentions cuda, and\n"
           "    # nothing active, there is nothing to do.\n"
           "    if (-not $hit -and -not $env:__CUDAENV_STATE) { return }\n"
           "    $__ce_last = $global:LASTEXITCODE\n"
           "    $__ce_enc = [Console]::OutputEncoding\n"
           "    $env:CUDAENV_SHELL = 'pwsh'\n"
           "    try {\n"
           "        try { [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false } catch { }\n"
           "        $__ce_code = & " + exe_literal + " hook-env\n"
           "        $__ce_status = $LASTEXITCODE\n"
           "    } finally {\n"
           "        try { [Console]::OutputEncoding = $__ce_enc } catch { }\n"
           "        Remove-Item Env:CUDAENV_SHELL -ErrorAction SilentlyContinue\n"
           "    }\n"
           "    if ($__ce_status -eq 0 -and $__ce_code) { Invoke-Expression ($__ce_code -join \"`n\") }\n"
           "    $global:LASTEXITCODE = $__ce_last\n"
           "}\n"
           "if ($PSVersionTable.PSVersion.Major -ge 7) {\n"
           "    $__ce_ic = $ExecutionContext.SessionState.InvokeCommand\n"
           "    if ($global:__cudaenv_lca) {\n"
           "        $__ce_ic.LocationChangedAction = [System.Delegate]::Remove($__ce_ic.LocationChangedAction, $global:__cudaenv_lca)\n"
           "    }\n"
           "    $global:__cudaenv_lca = [System.EventHandler[System.Management.Automation.LocationChangedEventArgs]] { __cudaenv_hook }\n"
           "    $__ce_ic.LocationChangedAction = [System.Delegate]::Combine($__ce_ic.LocationChangedAction, $global:__cudaenv_lca)\n"
           "} elseif (-not $global:__cudaenv_prompt) {\n"
           "    $global:__cudaenv_prompt = $function:prompt\n"
           "    function global:prompt {\n"
           "        __cudaenv_hook\n"
           "        & $global:__cudaenv_prompt\n"
           "    }\n"
           "}\n"
           "__cudaenv_hook\n";
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
        std::string out =
            "# cudaenv shell integration for PowerShell. Add to $PROFILE:\n"
            "#   Invoke-Expression (& cudaenv init pwsh | Out-String)\n"
            "function global:cudaenv {\n" +
            apply_block(quote(o.exe), "$args", "    ", "return");
        if (o.auto_switch)
            // After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
            out += "    if (($__ce_sub -eq 'deactivate' -or $__ce_sub -eq 'local') -and $LASTEXITCODE -eq 0) {\n"
                   "        $global:__cudaenv_key = $null\n"
                   "        __cudaenv_hook\n"
                   "    }\n";
        out += "}\n";
        if (!o.auto_switch) return out;
        return out + autoswitch(quote(o.exe));
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
