#!/usr/bin/env python3
"""The shell integrations under the user's own shell options.

    python3 test_options.py --cudaenv BIN --shell bash|zsh|fish|pwsh

Each case is a script run by the real shell: the user's options and prompt
code first (as a .bashrc would have them), then `cudaenv init`, then a cd
into a project with a .cudaenv, the hook, `cudaenv use`, `cudaenv
deactivate`. A case passes when the script runs to its end, prints nothing
on stderr, the hook saw the project (its key names the .cudaenv), and the
user's prompt code is all still there."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import fixture  # noqa: E402

COMMON_POSIX = """cd "$PROJECT"
__cudaenv_hook
case "$__cudaenv_key" in *"$PROJECT/.cudaenv"*) echo KEY-OK ;; esac
cudaenv use system
cudaenv deactivate
if [ -z "${before+x}" ] || [ "$before" = "$PATH" ]; then echo ALIVE; else echo "PATH changed"; fi
"""

CASES = {
    "bash": {
        "path-with-cr": ("PATH=$PATH:/odd$'\\r\\n'dir$'\\r'x\nbefore=$PATH\n", "", ""),
        "nounset-string-prompt-command": ("set -u\nPROMPT_COMMAND='echo mine'\n", 'printf "[%s]\\n" "$PROMPT_COMMAND"\n',
                                          "[__cudaenv_hook\necho mine]"),
        "nounset-no-prompt-command": ("set -u\nunset PROMPT_COMMAND\n", 'printf "[%s]\\n" "$PROMPT_COMMAND"\n',
                                      "[__cudaenv_hook]"),
        "euo-pipefail": ("set -euo pipefail\nPROMPT_COMMAND=(first second)\n",
                         'printf "[%s]" "${PROMPT_COMMAND[@]}"; echo\n', "[__cudaenv_hook][first][second]"),
    },
    "zsh": {
        "path-with-cr": ("PATH=$PATH:/odd$'\\r\\n'dir$'\\r'x\nbefore=$PATH\n", "", ""),
        "ksh-arrays": ("setopt ksh_arrays\nprecmd_functions=(u1 u2 u3)\nchpwd_functions=(c1 c2)\n"
                       "u1() { :; }; u2() { :; }; u3() { :; }; c1() { :; }; c2() { :; }\n",
                       'print -r -- "${precmd_functions[@]}|${chpwd_functions[@]}"\n',
                       "__cudaenv_hook u1 u2 u3|c1 c2 __cudaenv_hook"),
        "emulate-sh": ("emulate sh\nprecmd_functions=(u1 u2)\nu1() { :; }; u2() { :; }\n",
                       'print -r -- "${precmd_functions[@]}"\n', "__cudaenv_hook u1 u2"),
        "no-unset-err-exit": ("setopt no_unset err_exit pipe_fail\nprecmd_functions=(u1)\nu1() { :; }\n",
                              'print -r -- "${precmd_functions[@]}"\n', "__cudaenv_hook u1"),
    },
    "fish": {
        "path-with-cr": ("set -gx PATH $PATH /odd\\r\\ndir\\rx\nset -g before \"$PATH\"\n", "", ""),
        "custom-prompt": ("function fish_prompt; echo -n 'mine> '; end\n",
                          "functions fish_prompt | string match -q '*mine>*'; and echo PROMPT-KEPT\n", "PROMPT-KEPT"),
    },
    "pwsh": {
        "path-with-cr": ("$env:PATH = $env:PATH + \":/odd`r`ndir`rx\"\n$global:before = $env:PATH\n", "", ""),
        "strict-mode-latest": ("Set-StrictMode -Version Latest\n$ErrorActionPreference = 'Stop'\n"
                               "function global:prompt { 'mine> ' }\n",
                               "if ((& $function:prompt) -eq 'mine> ') { 'PROMPT-KEPT' }\n", "PROMPT-KEPT"),
    },
}


def script(shell, init_file, before, check):
    if shell in ("bash", "zsh"):
        return before + ". '%s'\n" % init_file + check + COMMON_POSIX
    if shell == "fish":
        return (before + "source '%s'\n" % init_file + check +
                'cd "$PROJECT"\n__cudaenv_hook\n'
                'string match -q -- "*$PROJECT/.cudaenv*" "$__cudaenv_key"; and echo KEY-OK\n'
                "cudaenv use system\ncudaenv deactivate\n"
                "if not set -q before; or test \"$before\" = \"$PATH\"; echo ALIVE; else; echo 'PATH changed'; end\n")
    return (before + ". '%s'\n" % init_file + check +
            "Set-Location -LiteralPath $env:PROJECT\n__cudaenv_hook\n"
            "if ($global:__cudaenv_key.Contains([System.IO.Path]::Combine($env:PROJECT, '.cudaenv'))) { 'KEY-OK' }\n"
            "cudaenv use system\ncudaenv deactivate\n"
            "if ((Test-Path Variable:global:before) -and $global:before -cne $env:PATH) { 'PATH changed' }\n"
            "elseif ($Error.Count -eq 0) { 'ALIVE' } else { $Error | ForEach-Object { [Console]::Error.WriteLine($_) } }\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--shell", required=True, choices=sorted(CASES))
    a = ap.parse_args()
    shell = a.shell
    exe = fixture.PWSH if shell == "pwsh" else shutil.which(shell)
    if not exe or not os.path.exists(exe):
        print("%s not found: skipped" % shell)
        return 77
    tmp = tempfile.mkdtemp(prefix="cudaenv-opts-")
    failures = []
    try:
        store = os.path.join(tmp, "store")
        home = os.path.join(tmp, "home")
        project = os.path.join(tmp, "project")
        for d in (store, home, project):
            os.makedirs(d)
        with open(os.path.join(project, ".cudaenv"), "w") as f:
            f.write("system\n")
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "CUDAENV_ROOT": store, "TERM": "dumb",
               "LANG": "C.UTF-8", "PROJECT": project, "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
               "POWERSHELL_TELEMETRY_OPTOUT": "1"}
        real = os.path.realpath(a.cudaenv)
        init = subprocess.run([real, "init", shell], env=env, capture_output=True, check=True).stdout
        init_file = os.path.join(tmp, "init.ps1" if shell == "pwsh" else "init")
        with open(init_file, "wb") as f:
            f.write(init)
        for name, (before, check, want) in CASES[shell].items():
            path = os.path.join(tmp, name + (".ps1" if shell == "pwsh" else ""))
            with open(path, "w") as f:
                f.write(script(shell, init_file, before, check))
            argv = {"bash": [exe, "--norc", "--noprofile", path], "zsh": [exe, "-f", path],
                    "fish": [exe, "--no-config", path],
                    "pwsh": [exe, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", path]}[shell]
            p = subprocess.run(argv, env=env, cwd=tmp, capture_output=True, text=True, timeout=120)
            ok = (p.returncode == 0 and not p.stderr and want in p.stdout and "KEY-OK" in p.stdout
                  and "ALIVE" in p.stdout)
            print("%s %s: %s" % (shell, name, "ok" if ok else "FAILED"))
            if not ok:
                failures.append(name)
                print("  rc %d\n  stdout: %r\n  stderr: %r" % (p.returncode, p.stdout, p.stderr))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
