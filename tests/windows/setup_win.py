#!/usr/bin/env python3
"""`cudaenv setup cmd|pwsh` and `setup --undo` against the registry: the shims
folder goes first on the user's Path in HKCU\\Environment (its value type and
every other entry kept), the init line into cmd's AutoRun and the PowerShell
profiles, and --undo leaves `reg query` of both keys byte for byte as before.

usage: setup_win.py <cudaenv.exe> <work dir> [runner...]

It rewrites HKCU values, so the cross build runs it in a Wine prefix of its
own (the runner: cmake/wine-run.sh <prefix>); it is not registered for a real
Windows, where HKCU is the developer's own."""
import os
import re
import shutil
import sys

import wine_retry

EXE, WORK = sys.argv[1:3]
RUNNER = sys.argv[3:]
ENV_KEY = "HKCU\\Environment"
CMD_KEY = "HKCU\\Software\\Microsoft\\Command Processor"
FOLDERS_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders"
BOM = b"\xef\xbb\xbf"
step = "start"


def win(path):
    path = os.path.abspath(path)
    return "Z:" + path.replace("/", "\\") if RUNNER else path


def fail(msg, text=None):
    if text is not None:
        print(text if isinstance(text, str) else text.decode("utf-8", "replace"))
    print(f"FAIL [{step}]: {msg}")
    sys.exit(1)


def expect(cond, msg, text=None):
    if not cond:
        fail(msg, text)


ENV = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV_")}
STORE = os.path.join(WORK, "store & co")
ENV["CUDAENV_ROOT"] = win(STORE)
SHIMS = win(STORE) + "\\shims"
DOCS = os.path.join(WORK, "Documents")


def run(*args, want=0):
    p = wine_retry.run(RUNNER + list(args), env=ENV, timeout=300)
    if want is not None and p.returncode != want:
        fail(f"exit {p.returncode}, wanted {want}: {' '.join(args)}",
             p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace"))
    return p


def cudaenv(*args):
    return run(EXE, *args).stdout.decode("utf-8", "replace").replace("\r\n", "\n")


def reg(*args, want=0):
    return run("reg", *args, want=want)


def snapshot():
    """`reg query` of both keys, every byte of it (a missing key answers an error)."""
    out = b""
    for key in (ENV_KEY, CMD_KEY):
        p = reg("query", key, want=None)
        out += b"%d\n" % p.returncode + p.stdout + p.stderr
    return out


def value(key, name):
    """(name as stored, type, data) of one value, or None. The whole key is
    listed: `reg query /v` may echo the name as asked, not as stored."""
    p = reg("query", key, want=None)
    for line in p.stdout.decode("utf-8", "replace").splitlines():
        m = re.match(r"^    (.+?)    (REG_[A-Z_]+)    (.*)$", line)
        if m and m.group(1).lower() == name.lower():
            return m.group(1), m.group(2), m.group(3)
    return None


def is_(got, want, what):
    expect(got == want, f"{what} = {got!r}, wanted {want!r}")


def read(path):
    with open(path, "rb") as f:
        return f.read()


PROFILES = [os.path.join(DOCS, "PowerShell", "Microsoft.PowerShell_profile.ps1"),
            os.path.join(DOCS, "WindowsPowerShell", "Microsoft.PowerShell_profile.ps1")]

shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(DOCS)
# $PROFILE lives in the Documents shell folder: point it into the work folder.
reg("add", FOLDERS_KEY, "/v", "Personal", "/t", "REG_EXPAND_SZ", "/d", win(DOCS), "/f")
reg("add", ENV_KEY, "/v", "CUDAENV_T_KEEP", "/t", "REG_SZ", "/d", "untouched;value", "/f")
INIT_CMD = cudaenv("init", "cmd").strip()
expect("doskey cudaenv=" in INIT_CMD, "init cmd line", INIT_CMD)


def setup(*args):
    return cudaenv("setup", *args)


# --- 1: a user Path (REG_EXPAND_SZ, with %USERPROFILE%) and an AutoRun (REG_SZ).
step = "expand_sz"
OLD_PATH = "%USERPROFILE%\\bin;C:\\Tools;"
# A run stopped half-way may have left its values (in another case): start clean.
reg("delete", ENV_KEY, "/v", "Path", "/f", want=None)
reg("delete", CMD_KEY, "/f", want=None)
reg("add", ENV_KEY, "/v", "Path", "/t", "REG_EXPAND_SZ", "/d", OLD_PATH, "/f")
reg("add", CMD_KEY, "/v", "AutoRun", "/t", "REG_SZ", "/d", "title dev", "/f")
before = snapshot()

out = setup("cmd")
expect("added " + SHIMS + " first" in out, "setup cmd output", out)
is_(value(ENV_KEY, "Path"), ("Path", "REG_EXPAND_SZ", SHIMS + ";" + OLD_PATH), "Path after setup cmd")
is_(value(CMD_KEY, "AutoRun"), ("AutoRun", "REG_SZ", "title dev & " + INIT_CMD), "AutoRun after setup cmd")
expect(os.path.isfile(os.path.join(STORE, "shims", "cudaenv.cmd")), "the session shim cudaenv.cmd")
expect(os.path.isfile(os.path.join(STORE, "setup.toml")), "setup.toml")
# A new process reads the user Path from the registry (Wine appends it to the
# system PATH, as Windows does at logon), %USERPROFILE% expanded.
new_path = run("cmd", "/d", "/c", "echo %PATH%").stdout.decode("utf-8", "replace").strip()
expect(SHIMS + ";" in new_path, "a new process's PATH has the shims", new_path)
expect("%USERPROFILE%" not in new_path, "a new process's PATH is expanded", new_path)

after = snapshot()
out = setup("cmd")
expect("user PATH: already has" in out and "cmd AutoRun: already set up" in out, "second setup cmd output", out)
is_(snapshot(), after, "registry after a second setup cmd")

out = setup("pwsh")
for prof in PROFILES:
    text = read(prof)
    expect(text.startswith(BOM), f"{prof} starts with a BOM", text)
    expect(b"init pwsh | Out-String" in text and EXE.encode() in text, f"{prof} runs init pwsh", text)
    expect(b"PATH" not in text, f"{prof} leaves PATH to the registry", text)
is_(snapshot(), after, "registry after setup pwsh (the shims are on Path once)")
profiles = [read(p) for p in PROFILES]
setup("pwsh")
is_([read(p) for p in PROFILES], profiles, "profiles after a second setup pwsh")

out = setup("cmd", "--undo")
is_(value(CMD_KEY, "AutoRun"), ("AutoRun", "REG_SZ", "title dev"), "AutoRun after setup cmd --undo")
is_(value(ENV_KEY, "Path")[2], SHIMS + ";" + OLD_PATH, "Path while pwsh is still set up")
out = setup("pwsh", "--undo")
is_(snapshot(), before, "registry after both undos")
for prof in PROFILES:
    expect(not os.path.exists(os.path.dirname(prof)), f"{os.path.dirname(prof)} removed (setup created it)")
expect(not os.path.exists(os.path.join(STORE, "setup.toml")), "setup.toml removed")

# --- 2: PATH (upper case) as REG_SZ, AutoRun as REG_EXPAND_SZ, a profile of the user's own.
step = "sz"
OLD_PATH = "C:\\Program Files\\Git\\cmd;%NOT_EXPANDED%"
reg("delete", ENV_KEY, "/v", "Path", "/f")
reg("add", ENV_KEY, "/v", "PATH", "/t", "REG_SZ", "/d", OLD_PATH, "/f")
reg("delete", CMD_KEY, "/v", "AutoRun", "/f")
reg("add", CMD_KEY, "/v", "AUTORUN", "/t", "REG_EXPAND_SZ", "/d", "doskey /macrofile=%USERPROFILE%\\macros.txt", "/f")
os.makedirs(os.path.dirname(PROFILES[0]))
with open(PROFILES[0], "wb") as f:
    f.write(b"Set-Alias ll Get-ChildItem")  # no final newline
own = read(PROFILES[0])
before = snapshot()
setup("cmd")
setup("pwsh")
is_(value(ENV_KEY, "Path"), ("PATH", "REG_SZ", SHIMS + ";" + OLD_PATH), "PATH after setup")
is_(value(CMD_KEY, "AutoRun"),
    ("AUTORUN", "REG_EXPAND_SZ", "doskey /macrofile=%USERPROFILE%\\macros.txt & " + INIT_CMD), "AutoRun after setup")
expect(read(PROFILES[0]).startswith(own + b"\r\n") or read(PROFILES[0]).startswith(own + b"\n"),
       "the user's profile keeps its text first", read(PROFILES[0]))
out = setup("--undo")
is_(snapshot(), before, "registry after setup --undo")
is_(read(PROFILES[0]), own, "the user's profile after setup --undo")
expect(not os.path.exists(os.path.dirname(PROFILES[1])), "WindowsPowerShell folder removed")

# --- 3: no user Path and no Command Processor key at all.
step = "none"
shutil.rmtree(os.path.join(DOCS, "PowerShell"))
reg("delete", ENV_KEY, "/v", "Path", "/f")
reg("delete", CMD_KEY, "/f")
before = snapshot()
setup("cmd")
is_(value(ENV_KEY, "Path"), ("Path", "REG_EXPAND_SZ", SHIMS), "Path created by setup")
is_(value(CMD_KEY, "AutoRun"), ("AutoRun", "REG_SZ", INIT_CMD), "AutoRun created by setup")
setup("cmd", "--undo")
is_(snapshot(), before, "registry after setup cmd --undo")

print("PASS")
