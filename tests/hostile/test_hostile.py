#!/usr/bin/env python3
"""A hostile repository walked by a shell's auto-switch hook.

    python3 test_hostile.py --cudaenv BIN --shell bash|zsh|fish|pwsh

Builds a folder tree as a cloned repository could deliver it (folder names
with a newline, tab, ESC, CR; a `.cudaenv` that is a FIFO, a link to
/dev/zero, to a 10 MB file, to a folder, unreadable, UTF-16, CRLF, with NUL
bytes), loads `cudaenv init <shell>` in the real shell and enters each folder,
then asks for two more prompts there. For each step it prints the time the
hook took, and asserts:
  - no step hangs (a generous hard limit, only to catch hangs),
  - entering prints nothing but cudaenv's own one-line error (and hint) for a
    file that is not a spec; the prompts after it print nothing at all,
  - the hook runs `cudaenv hook-env` at most once per change, and again when
    a spec changes below line 32 of a version file (hook and binary agree on
    what a file says).
As root, bash, zsh and fish run as `nobody` (setpriv) so that an unreadable
file is unreadable; pwsh then skips that case."""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
import fixture  # noqa: E402

HANG = 20.0  # seconds: a step slower than this is a hang

CASES = [
    # name, folder name, how to make .cudaenv (None: no file)
    ("newline", "a\nb", None),
    ("tab", "a\tb", None),
    ("esc", "a\x1b[31mb", None),
    ("cr", "a\rb", None),
    ("fifo", "fifo", "fifo"),
    ("devzero", "devzero", "devzero"),
    ("big-link", "biglink", "biglink"),
    ("big-file", "bigfile", "bigfile"),
    ("dir", "dir", "dir"),
    ("unreadable", "unreadable", "unreadable"),
    ("utf16le", "utf16le", b"\xff\xfe" + "system\r\n".encode("utf-16-le")),
    ("utf16be", "utf16be", b"\xfe\xff" + "system\r\n".encode("utf-16-be")),
    ("utf8bom", "utf8bom", b"\xef\xbb\xbfsystem\n"),
    ("crlf", "crlf", b"system\r\n"),
    ("nul", "nul", b"sys\x00tem\n"),
    ("line40", "line40", b"# comment\n" * 39 + b"system\n"),
]


def build_tree(root, as_nobody):
    big = os.path.join(root, "big.txt")
    with open(big, "wb") as f:
        f.write(b"1" * (10 * 1024 * 1024))
    made = []
    for name, folder, how in CASES:
        if how == "unreadable" and not as_nobody and os.getuid() == 0:
            continue
        d = os.path.join(root, "repo", folder)
        os.makedirs(d)
        f = os.path.join(d, ".cudaenv")
        if how is None:
            pass
        elif how == "fifo":
            os.mkfifo(f)
        elif how == "devzero":
            os.symlink("/dev/zero", f)
        elif how == "biglink":
            os.symlink(big, f)
        elif how == "bigfile":
            shutil.copyfile(big, f)
        elif how == "dir":
            os.mkdir(f)
        elif how == "unreadable":
            with open(f, "w") as fh:
                fh.write("system\n")
            os.chmod(f, 0)
        else:
            with open(f, "wb") as fh:
                fh.write(how)
        made.append((name, d))
    return made


def script(shell, init_file, cases, out):
    """The shell script: load init, then per case enter, two prompts, leave."""
    q = shlex.quote
    lines = []
    if shell in ("bash", "zsh"):
        if shell == "zsh":
            lines.append("zmodload zsh/datetime")
        lines.append(". %s" % q(init_file))
        lines.append("__step() { local t0=$EPOCHREALTIME; %s >\"$2\" 2>&1; local t1=$EPOCHREALTIME;"
                     " printf '@@T %%s %%s %%s\\n' \"$1\" \"$t0\" \"$t1\"; }" % "eval \"$3\"")
        for i, (name, d) in enumerate(cases):
            o = os.path.join(out, "%d" % i)
            lines.append("__step %s %s %s" % (q(name + ":enter"), q(o + ".0"), q("cd %s; __cudaenv_hook" % q(d))))
            lines.append("__step %s %s __cudaenv_hook" % (q(name + ":prompt"), q(o + ".1")))
            lines.append("__step %s %s __cudaenv_hook" % (q(name + ":prompt"), q(o + ".2")))
            lines.append("cd / >/dev/null 2>&1; __cudaenv_hook >/dev/null 2>&1")
        lines.append("echo @@DONE")
    elif shell == "fish":
        lines.append("source %s" % fixture_fish_quote(init_file))
        lines.append("function __step; set -l t0 (date +%s.%N); eval $argv[3] >$argv[2] 2>&1;"
                     " set -l t1 (date +%s.%N); printf '@@T %s %s %s\\n' $argv[1] $t0 $t1; end")
        for i, (name, d) in enumerate(cases):
            o = os.path.join(out, "%d" % i)
            enter = "cd %s; __cudaenv_hook" % fixture_fish_quote(d)
            lines.append("__step %s %s %s" % (fixture_fish_quote(name + ":enter"), fixture_fish_quote(o + ".0"),
                                              fixture_fish_quote(enter)))
            for k in (1, 2):
                lines.append("__step %s %s __cudaenv_hook" % (fixture_fish_quote(name + ":prompt"),
                                                            fixture_fish_quote("%s.%d" % (o, k))))
            lines.append("cd / >/dev/null 2>&1; __cudaenv_hook >/dev/null 2>&1")
        lines.append("echo @@DONE")
    else:
        pq = lambda s: "'" + s.replace("'", "''") + "'"  # noqa: E731
        lines.append(". %s" % pq(init_file))
        lines.append("function __step([string]$label, [string]$o, [scriptblock]$b) {"
                     " $sw = [System.Diagnostics.Stopwatch]::StartNew();"
                     " $r = & $b *>&1 | Out-String; $sw.Stop();"
                     " [System.IO.File]::WriteAllText($o, $r);"
                     " Write-Output ('@@T ' + $label + ' 0 ' + ($sw.Elapsed.TotalSeconds).ToString([cultureinfo]::InvariantCulture)) }")
        for i, (name, d) in enumerate(cases):
            o = os.path.join(out, "%d" % i)
            lines.append("__step %s %s { Set-Location -LiteralPath %s; __cudaenv_hook }" % (pq(name + ":enter"),
                                                                                         pq(o + ".0"), pq(d)))
            for k in (1, 2):
                lines.append("__step %s %s { __cudaenv_hook }" % (pq(name + ":prompt"), pq("%s.%d" % (o, k))))
            lines.append("Set-Location / *> $null; __cudaenv_hook *> $null")
        lines.append("Write-Output '@@DONE'")
    return "\n".join(lines) + "\n"


def fixture_fish_quote(s):
    return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'"


def agreement(shell, exe, argv, env, tmp, init_file, log):
    """A spec edited on line 40 of a .cudaenv switches the shell: the hook
    compares what the binary reads, not only the first lines."""
    d = os.path.join(tmp, "agree")
    os.makedirs(d)
    os.chmod(d, 0o777)
    f = os.path.join(d, ".cudaenv")
    head = b"# comment\n" * 39
    with open(f, "wb") as fh:
        fh.write(head + b"system\n")
    os.chmod(f, 0o666)
    edited = os.path.join(tmp, "edited")
    with open(edited, "wb") as fh:
        fh.write(head + b"11.8\n")
    os.chmod(edited, 0o644)
    open(log, "w").close()
    q = fixture_fish_quote if shell == "fish" else shlex.quote
    if shell == "pwsh":
        pq = lambda s: "'" + s.replace("'", "''") + "'"  # noqa: E731
        body = (". %s\nSet-Location -LiteralPath %s\n__cudaenv_hook *> $null\n__cudaenv_hook *> $null\n"
                "[System.IO.File]::Copy(%s, %s, $true)\n__cudaenv_hook *> $null\n__cudaenv_hook *> $null\n"
                % (pq(init_file), pq(d), pq(edited), pq(f)))
    else:
        src = "source" if shell == "fish" else "."
        body = ("%s %s\ncd %s\n__cudaenv_hook >/dev/null 2>&1\n__cudaenv_hook >/dev/null 2>&1\n"
                "cat %s >%s\n__cudaenv_hook >/dev/null 2>&1\n__cudaenv_hook >/dev/null 2>&1\n"
                % (src, q(init_file), q(d), q(edited), q(f)))
    path = os.path.join(tmp, "agree." + ("ps1" if shell == "pwsh" else shell))
    with open(path, "w") as fh:
        fh.write(body)
    os.chmod(path, 0o644)
    subprocess.run(argv + [path], env=env, cwd="/", capture_output=True, timeout=120)
    with open(log) as fh:
        runs = [l for l in fh.read().splitlines() if l.startswith("hook-env")]
    print("agreement: hook-env ran %d times (want 2: entering, and after the edit on line 40)" % len(runs))
    return [] if len(runs) == 2 else ["an edit on line 40 of a .cudaenv: hook-env ran %d times, want 2" % len(runs)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--shell", required=True)  # CTest passes each of `cudaenv __shells`
    a = ap.parse_args()
    shell = a.shell
    exe = fixture.PWSH if shell == "pwsh" else shutil.which(shell)
    if not exe or not os.path.exists(exe):
        print("%s not found: skipped" % shell)
        return 77
    as_nobody = os.getuid() == 0 and shell != "pwsh" and shutil.which("setpriv")
    tmp = tempfile.mkdtemp(prefix="cudaenv-hostile-")
    os.chmod(tmp, 0o755)
    try:
        real = os.path.realpath(a.cudaenv)
        # Every run of the binary is counted through a wrapper.
        log = os.path.join(tmp, "runs.log")
        wrapper = os.path.join(tmp, "cudaenv-wrapper")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\necho \"$*\" >>%s\nexec %s \"$@\"\n" % (shlex.quote(log), shlex.quote(real)))
        os.chmod(wrapper, 0o755)
        open(log, "w").close()
        os.chmod(log, 0o666)
        store = os.path.join(tmp, "store")
        home = os.path.join(tmp, "home")
        os.makedirs(store)
        os.makedirs(home)
        env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": home, "CUDAENV_ROOT": store, "TERM": "dumb",
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
               "POWERSHELL_TELEMETRY_OPTOUT": "1"}
        r = subprocess.run([real, "init", shell], env=env, capture_output=True, check=True)
        init = r.stdout.decode("utf-8").replace(real, wrapper)
        init_file = os.path.join(tmp, "init." + ("ps1" if shell == "pwsh" else shell))
        with open(init_file, "w", encoding="utf-8") as f:
            f.write(init)
        cases = build_tree(tmp, as_nobody)
        out = os.path.join(tmp, "out")
        os.makedirs(out)
        body = script(shell, init_file, cases, out)
        script_file = os.path.join(tmp, "script." + ("ps1" if shell == "pwsh" else shell))
        with open(script_file, "w", encoding="utf-8") as f:
            f.write(body)
        if shell == "pwsh":
            argv = [exe, "-NoLogo", "-NoProfile", "-NonInteractive", "-File", script_file]
        elif shell == "fish":
            argv = [exe, "--no-config", script_file]
        elif shell == "zsh":
            argv = [exe, "-f", script_file]
        else:
            argv = [exe, "--norc", "--noprofile", script_file]
        if as_nobody:
            # chmod -R follows no links: /dev/zero is left alone.
            subprocess.run(["chmod", "-R", "a+rwX", tmp], check=True)
            for name, d in cases:
                if name == "unreadable":
                    os.chmod(os.path.join(d, ".cudaenv"), 0)
            argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + argv
        timeout = HANG * 3 * len(cases) + 30
        t0 = time.monotonic()
        p = subprocess.run(argv, env=env, cwd="/", capture_output=True, timeout=timeout)
        total = time.monotonic() - t0
        stdout = p.stdout.decode("utf-8", "replace")
        failures = []
        if "@@DONE" not in stdout:
            failures.append("the script did not finish (rc %d): %s %s" % (p.returncode, stdout[-2000:],
                                                                          p.stderr.decode("utf-8", "replace")[-2000:]))
        steps = [l.split(" ") for l in stdout.splitlines() if l.startswith("@@T ")]
        worst = 0.0
        print("%-16s %10s %10s %10s" % ("case (%s)" % shell, "enter ms", "prompt ms", "prompt ms"))
        for i, (name, d) in enumerate(cases):
            times = []
            for k in range(3):
                idx = i * 3 + k
                if idx >= len(steps):
                    times.append(float("nan"))
                    continue
                s = steps[idx]
                t = float(s[3]) - float(s[2])
                times.append(t)
                worst = max(worst, t)
                if t > HANG:
                    failures.append("%s: step %d took %.1f s" % (name, k, t))
                try:
                    with open(os.path.join(out, "%d.%d" % (i, k)), encoding="utf-8", errors="replace") as f:
                        said = f.read()
                except FileNotFoundError:
                    said = ""
                if k == 0:
                    noise = [l for l in said.splitlines() if not l.startswith(("cudaenv: error: ", "hint: "))]
                    errors = [l for l in said.splitlines() if l.startswith("cudaenv: error: ")]
                    if noise or len(errors) > 1:
                        failures.append("%s: entering printed %r" % (name, said))
                elif said:
                    failures.append("%s: prompt %d printed %r" % (name, k, said))
            print("%-16s %10.1f %10.1f %10.1f" % (name, *(t * 1000 for t in times)))
        print("worst step %.1f ms; whole run %.1f s" % (worst * 1000, total))
        with open(log) as f:
            runs = [l for l in f.read().splitlines() if l.startswith("hook-env")]
        # Each folder with a .cudaenv gives at most one hook-env on entering and
        # one on leaving (restore); none on the prompts after.
        with_file = sum(1 for n, fo, how in CASES if how is not None and any(n == c[0] for c in cases))
        if len(runs) > 2 * with_file:
            failures.append("hook-env ran %d times for %d folders with a .cudaenv" % (len(runs), with_file))
        failures += agreement(shell, exe, argv[:-1], env, tmp, init_file, log)
        for f in failures:
            print("FAIL: " + f)
        return 1 if failures else 0
    finally:
        subprocess.run(["chmod", "-R", "u+rwX", tmp], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
