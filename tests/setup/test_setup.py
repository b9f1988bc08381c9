#!/usr/bin/env python3
"""`cudaenv setup` and `setup --undo` on real files, read by the real shells:
undo never deletes a byte the user wrote, links are written through and stay
links, read-only files are left alone, and a profile whose line endings the
shell cannot read is refused instead of being given a block that will not run.

usage: test_setup.py <cudaenv> <work dir>"""
import os
import shutil
import stat
import subprocess
import sys

EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
PWSH = shutil.which("pwsh") or (os.path.expanduser("~/.dotnet/tools/pwsh")
                                if os.path.exists(os.path.expanduser("~/.dotnet/tools/pwsh")) else None)
failures = []
case = "start"


def check(cond, msg, detail=""):
    if not cond:
        failures.append(f"[{case}] {msg}")
        print(f"FAIL: [{case}] {msg}\n{detail}")


def fresh(name):
    global case, HOME, ENV, rc
    case = name
    HOME = os.path.join(WORK, name)
    rc = os.path.join(HOME, ".bashrc")
    shutil.rmtree(HOME, ignore_errors=True)
    os.makedirs(HOME)
    ENV = {"HOME": HOME, "PATH": os.environ["PATH"], "CUDAENV_ROOT": os.path.join(HOME, "store"),
           "SHELL": "/bin/bash", "LANG": "C.UTF-8", "TERM": "dumb"}


def run(*args, want=0):
    p = subprocess.run(list(args), env=ENV, capture_output=True, text=True, timeout=120)
    check(want is None or p.returncode == want, f"{' '.join(args)}: exit {p.returncode}, wanted {want}",
          p.stdout + p.stderr)
    return p


def setup(*args, want=0):
    return run(EXE, "setup", *args, want=want)


def rd(p):
    with open(p, "rb") as f:
        return f.read()


def wr(p, data):
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def bash_sees_cudaenv():
    p = run("bash", "-c", 'source "$HOME/.bashrc"; type -t cudaenv; echo "$PATH"', want=None)
    lines = p.stdout.splitlines()
    return p.returncode == 0 and lines[:1] == ["function"] and lines[1].startswith(ENV["CUDAENV_ROOT"] + "/shims:"), p


# A stray begin marker of the user's, with lines after it, and no final newline.
fresh("stray_marker")
own = b"# >>> cudaenv >>>\nexport KEEP=1\nalias ll='ls -l'"
wr(rc, own)
setup("bash")
ok, p = bash_sees_cudaenv()
check(ok, "bash sources the profile and gets the cudaenv function, shims first on PATH", p.stdout + p.stderr)
setup("bash")
setup("--undo")
check(rd(rc) == own, "undo restores every byte", rd(rc))

# Lines the user wrote inside the block since: undo refuses and changes nothing.
fresh("inside")
wr(rc, b"a\n")
setup("bash")
text = rd(rc).replace(b"# <<< cudaenv <<<", b"export MINE=1\n# <<< cudaenv <<<")
wr(rc, text)
p = setup("--undo", want=1)
check("changed since setup wrote it" in p.stderr, "a clear message", p.stderr)
check(rd(rc) == text, "the file is unchanged")

# A copy of the block the user made stays; setup's own goes.
fresh("duplicate")
wr(rc, b"a\n")
setup("bash")
block = rd(rc)[2:]
wr(rc, b"a\n" + block + b"echo mine\n" + block)
setup("--undo")
check(rd(rc) == b"a\necho mine\n" + block, "only setup's block removed", rd(rc))

# A dangling link: refused, the link untouched, nothing created.
fresh("dangling")
os.symlink(os.path.join(HOME, "dotfiles", "bashrc"), rc)
p = setup("bash", want=1)
check("does not exist" in p.stderr, "a clear message", p.stderr)
check(os.path.islink(rc) and not os.path.exists(os.path.join(HOME, "dotfiles")), "link kept, nothing created")

# A link into a dotfiles folder: written through, stays a link.
fresh("symlink")
target = os.path.join(HOME, "dotfiles", "bashrc")
wr(target, b"export A=1\n")
os.symlink(target, rc)
setup("bash")
check(os.path.islink(rc) and b"init bash" in rd(target), "written through the link")
ok, p = bash_sees_cudaenv()
check(ok, "bash reads it through the link", p.stdout + p.stderr)
setup("--undo")
check(os.path.islink(rc) and rd(target) == b"export A=1\n", "undo through the link")

# A hard link stays one file with two names.
fresh("hardlink")
other = os.path.join(HOME, "bashrc.hard")
wr(rc, b"export A=1\n")
os.link(rc, other)
setup("bash")
check(os.stat(rc).st_ino == os.stat(other).st_ino and b"init bash" in rd(other), "both names see the block")
setup("--undo")
check(os.stat(rc).st_ino == os.stat(other).st_ino and rd(other) == b"export A=1\n", "both names restored")

# Read-only: left alone by setup, and by undo (root ignores permissions; cudaenv does not).
fresh("readonly")
wr(rc, b"export A=1\n")
os.chmod(rc, 0o444)
p = setup("bash", want=1)
check("read-only" in p.stderr and rd(rc) == b"export A=1\n", "setup refuses", p.stderr)
os.chmod(rc, 0o640)
setup("bash")
check(stat.S_IMODE(os.stat(rc).st_mode) == 0o640, "the file keeps its mode")
os.chmod(rc, 0o440)
before = rd(rc)
p = setup("--undo", want=1)
check("read-only" in p.stderr and rd(rc) == before, "undo refuses", p.stderr)
os.chmod(rc, 0o640)
setup("--undo")
check(rd(rc) == b"export A=1\n", "undo once writable")

# CRLF .bashrc: bash cannot run CRLF lines, so setup refuses rather than claim success.
fresh("crlf_bash")
wr(rc, b"export A=1\r\n")
p = setup("bash", want=1)
check("CRLF" in p.stderr and rd(rc) == b"export A=1\r\n", "refused, unchanged", p.stderr)
check(not os.path.exists(os.path.join(ENV["CUDAENV_ROOT"], "setup.toml")), "nothing recorded")

# fish reads CRLF: the block matches the file's line endings and fish runs it.
fresh("crlf_fish")
cf = os.path.join(HOME, ".config", "fish", "config.fish")
wr(cf, b"set -gx MINE 1\r\n")
setup("fish")
check(rd(cf).endswith(b"# <<< cudaenv <<<\r\n"), "a CRLF block", rd(cf))
p = run("fish", "-c", "functions -q cudaenv; and echo yes", want=None)
check(p.stdout.strip() == "yes", "fish loads the integration from a CRLF config.fish", p.stdout + p.stderr)
setup("fish", "--undo")
check(rd(cf) == b"set -gx MINE 1\r\n", "undo exact")

# zsh: a new ~/.zshrc is created and removed again.
fresh("zsh_created")
setup("zsh")
p = run("zsh", "-c", 'source "$HOME/.zshrc"; whence -w cudaenv', want=None)
check(p.stdout.strip() == "cudaenv: function", "zsh gets the function", p.stdout + p.stderr)
setup("zsh", "--undo")
check(not os.path.exists(os.path.join(HOME, ".zshrc")), "the profile setup created is gone")

# A CR-only PowerShell profile keeps its last byte.
if PWSH:
    fresh("cr_pwsh")
    prof = os.path.join(HOME, ".config", "powershell", "Microsoft.PowerShell_profile.ps1")
    wr(prof, b"$global:Mine = 1\r$global:Two = 2")
    setup("pwsh")
    p = run(PWSH, "-NoLogo", "-Command", "if (Get-Command cudaenv -CommandType Function -ErrorAction Ignore) { 'yes' }",
            want=None)
    check(p.stdout.strip().endswith("yes"), "pwsh loads the profile", p.stdout + p.stderr)
    setup("pwsh", "--undo")
    check(rd(prof) == b"$global:Mine = 1\r$global:Two = 2", "every byte back", rd(prof))
else:
    print("note: pwsh not found; the CR-only PowerShell case is covered by the unit tests only")

if failures:
    sys.exit(1)
print("PASS")
