#!/usr/bin/env python3
"""Lints and golden files for the shell code cudaenv prints.

    python3 lint_shell.py --cudaenv BIN CHECK        CHECK: golden shellcheck zsh fish pwsh
    python3 lint_shell.py --cudaenv BIN golden --update   rewrites tests/lint/golden/

Generates every shell's `init` (with and without auto-switch), `completions`
and the session shims (cudaenv.ps1, cudaenv.cmd) with fixed paths, then
  golden      compares each with tests/lint/golden/<name>: any change to the
              shell code cudaenv prints is a visible diff in review
  shellcheck  runs shellcheck on the bash output
  zsh         parses the zsh output with `zsh -n` (shellcheck has no zsh mode)
  fish        parses the fish output with `fish --no-execute`
  pwsh        parses the PowerShell output with PowerShell 7's parser and
              refuses PowerShell-7-only syntax (tests/integration/ps5_syntax.ps1),
              so Windows PowerShell 5.1 can read it too
Exit status 0 when all is well; a skipped check (tool missing) exits 77."""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")
PS5 = os.path.join(HERE, "..", "integration", "ps5_syntax.ps1")
EXE = "/opt/cudaenv/bin/cudaenv"      # what the real paths are replaced by
STORE = "/home/user/.local/share/cudaenv"
SKIP = 77


def generate(cudaenv):
    """{golden name: text} for everything the binary prints as shell code."""
    real_exe = os.path.realpath(cudaenv)
    out = {}
    with tempfile.TemporaryDirectory(prefix="cudaenv-lint-") as store:
        env = dict(os.environ, CUDAENV_ROOT=store, HOME=store)
        env.pop("CUDAENV_SHELL", None)

        def run(*args):
            r = subprocess.run([real_exe, *args], env=env, capture_output=True, check=True)
            text = r.stdout.decode("utf-8")
            return text.replace(real_exe, EXE).replace(store, STORE)

        # Every shell of the table, with its files' extension (`cudaenv __shells`).
        ext = {row.split("\t")[0]: row.split("\t")[1] for row in run("__shells").splitlines()}
        for sh, e in ext.items():
            out["init.%s" % e] = run("init", sh)
            if sh != "cmd":
                out["init-no-auto-switch.%s" % e] = run("init", "--no-auto-switch", sh)
            out["completion.%s" % e] = run("completions", sh)
        for shim in ("cudaenv.ps1", "cudaenv.cmd"):
            with open(os.path.join(store, "shims", shim), "rb") as f:
                text = f.read().decode("utf-8-sig").replace(real_exe, EXE).replace(store, STORE)
            out["shim-" + shim] = text
    return out


def check_golden(files, update):
    bad = 0
    os.makedirs(GOLDEN, exist_ok=True)
    for name, text in sorted(files.items()):
        path = os.path.join(GOLDEN, name)
        if update:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            continue
        try:
            with open(path, encoding="utf-8", newline="") as f:
                want = f.read()
        except FileNotFoundError:
            want = ""
        if want != text:
            bad += 1
            sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                                       "golden/" + name, "cudaenv output"))
    if update:
        print("golden: rewrote %d files in %s" % (len(files), GOLDEN))
        return 0
    if bad:
        print("golden: %d files differ; if the change is intended, run\n"
              "  python3 tests/lint/lint_shell.py --cudaenv build/default/cudaenv golden --update" % bad)
        return 1
    print("golden: %d files match" % len(files))
    return 0


def lint_each(files, suffixes, argv_for, label):
    bad = 0
    with tempfile.TemporaryDirectory(prefix="cudaenv-lint-") as d:
        for name, text in sorted(files.items()):
            if not name.endswith(suffixes):
                continue
            path = os.path.join(d, name)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(text)
            r = subprocess.run(argv_for(path), capture_output=True, text=True)
            status = "ok" if r.returncode == 0 else "FAILED"
            print("%s %s: %s" % (label, name, status))
            if r.returncode != 0:
                bad += 1
                print(r.stdout + r.stderr)
    return 1 if bad else 0


def pwsh_exe():
    for p in (os.environ.get("CUDAENV_TEST_PWSH"), shutil.which("pwsh"),
              os.path.expanduser("~/.dotnet/tools/pwsh")):
        if p and os.path.exists(p):
            return p
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("check", choices=["golden", "shellcheck", "zsh", "fish", "pwsh"])
    ap.add_argument("--update", action="store_true", help="golden: rewrite the golden files")
    a = ap.parse_args()
    files = generate(a.cudaenv)
    if a.check == "golden":
        return check_golden(files, a.update)
    if a.check == "shellcheck":
        if not shutil.which("shellcheck"):
            print("shellcheck not installed (.ci/deps.sh installs it)")
            return SKIP
        return lint_each(files, (".bash",), lambda p: ["shellcheck", "--shell=bash", "--severity=style", p],
                         "shellcheck")
    if a.check == "zsh":
        return lint_each(files, (".zsh",), lambda p: ["zsh", "-n", p], "zsh -n")
    if a.check == "fish":
        return lint_each(files, (".fish",), lambda p: ["fish", "--no-execute", p], "fish --no-execute")
    pwsh = pwsh_exe()
    if not pwsh:
        print("pwsh not found")
        return SKIP
    # ps5_syntax.ps1 parses with PowerShell 7's parser (errors fail) and then
    # refuses 7-only syntax, so one run covers both versions.
    return lint_each(files, (".ps1",), lambda p: [pwsh, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", PS5,
                                                  "-Path", p], "pwsh 7 parse + 5.1 syntax")


if __name__ == "__main__":
    sys.exit(main())
