#!/usr/bin/env python3
"""The Windows zip as a user gets it: `cpack -G ZIP` of this build, unpacked
into a temp folder, `cudaenv.exe setup --install` copies the programs to
%LOCALAPPDATA%\\Programs\\cudaenv and puts that folder and the shims folder on
the user's Path once (a long Path value kept whole), a new `cmd /c cudaenv
--version` finds it through PATH, running it twice changes nothing, bad
folders are refused with nothing changed, and `setup --undo` (run from the
unpacked zip) restores HKCU\\Environment exactly and removes the copy.

usage: install_win.py <build dir> <work dir> <wine-run.sh> <wine prefix>"""
import os
import re
import shutil
import subprocess
import sys
import zipfile

import wine_retry

BUILD, WORK = sys.argv[1:3]
RUNNER = sys.argv[3:]
ENV_KEY = "HKCU\\Environment"
CMD_KEY = "HKCU\\Software\\Microsoft\\Command Processor"
FOLDERS_KEY = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders"
step = "start"


def win(path):
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def fail(msg, text=None):
    if text is not None:
        print(text if isinstance(text, str) else text.decode("utf-8", "replace"))
    print(f"FAIL [{step}]: {msg}")
    sys.exit(1)


def expect(cond, msg, text=None):
    if not cond:
        fail(msg, text)


ENV = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV_")}
STORE = os.path.join(WORK, "store")
ENV["CUDAENV_ROOT"] = win(STORE)
SHIMS = win(STORE) + "\\shims"
DOCS = os.path.join(WORK, "Documents")


def run(*args, want=0, runner=True):
    if runner:
        p = wine_retry.run(RUNNER + list(args), env=ENV, timeout=600)
    else:
        p = subprocess.run(list(args), env=ENV, capture_output=True, timeout=600)
    if want is not None and p.returncode != want:
        fail(f"exit {p.returncode}, wanted {want}: {' '.join(args)}",
             p.stdout.decode("utf-8", "replace") + p.stderr.decode("utf-8", "replace"))
    return p


def text(p):
    return (p.stdout + p.stderr).decode("utf-8", "replace").replace("\r\n", "\n")


def reg(*args, want=0):
    return run("reg", *args, want=want)


def snapshot():
    out = b""
    for key in (ENV_KEY, CMD_KEY):
        p = reg("query", key, want=None)
        out += b"%d\n" % p.returncode + p.stdout + p.stderr
    return out


def path_value():
    for line in reg("query", ENV_KEY).stdout.decode("utf-8", "replace").splitlines():
        m = re.match(r"^    (.+?)    (REG_[A-Z_]+)    (.*)$", line)
        if m and m.group(1).lower() == "path":
            return m.group(3)
    return None


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(DOCS)

step = "zip"
p = run("cpack", "-G", "ZIP", "--config", os.path.join(BUILD, "CPackConfig.cmake"), "-B", os.path.join(WORK, "out"),
        runner=False)
zips = [f for f in os.listdir(os.path.join(WORK, "out")) if f.endswith(".zip")]
expect(len(zips) == 1, "one zip", text(p))
with zipfile.ZipFile(os.path.join(WORK, "out", zips[0])) as z:
    names = z.namelist()
    top = zips[0][:-4]
    for f in ("cudaenv.exe", "cudaenv-shim.exe", "cudaenv-install.exe", "cudaenv-probe.exe", "LICENSE", "THIRD-PARTY-NOTICES.txt",
              "README.md", "share/cudaenv/cudaenv-completion.ps1", "lib/cudaenv/zlibwapi.dll"):
        expect(f"{top}/{f}" in names, f"{f} in the zip", "\n".join(names))
    z.extractall(os.path.join(WORK, "unzipped"))
print("zip:", zips[0], len(names), "entries")
EXE = win(os.path.join(WORK, "unzipped", top, "cudaenv.exe"))

step = "prepare"
reg("add", FOLDERS_KEY, "/v", "Personal", "/t", "REG_EXPAND_SZ", "/d", win(DOCS), "/f")
reg("delete", ENV_KEY, "/v", "Path", "/f", want=None)
reg("delete", CMD_KEY, "/f", want=None)
LOCAL = run("cmd", "/d", "/c", "echo %LOCALAPPDATA%").stdout.decode().strip()
expect(re.match(r"^[A-Za-z]:\\", LOCAL), "LOCALAPPDATA", LOCAL)
PROGS = LOCAL + "\\Programs\\cudaenv"
# A Path near the 2047 characters that setx-era tools cut at: kept whole.
OLD_PATH = "%USERPROFILE%\\bin;" + ";".join(f"C:\\tools\\t{i:03d}" + "x" * 20 for i in range(65))
OLD_PATH = OLD_PATH[:2040]
reg("add", ENV_KEY, "/v", "Path", "/t", "REG_EXPAND_SZ", "/d", OLD_PATH, "/f")
expect(path_value() == OLD_PATH, "the long Path is in place")
before = snapshot()

step = "bad folders"
afile = os.path.join(WORK, "a-file")
with open(afile, "w") as f:
    f.write("x")
for bad in (win(afile), win(afile) + "\\sub"):
    p = run(EXE, "setup", "--install", bad, want=1)
    expect("cudaenv: error:" in text(p), "a clear error", text(p))
    expect(snapshot() == before, f"registry unchanged after --install {bad}")
    expect(not os.path.exists(os.path.join(STORE, "setup.toml")), "nothing recorded")
expect(open(afile).read() == "x", "the file is unchanged")

step = "install"
out = text(run(EXE, "setup", "--install"))
print(out)
local_unix = run("winepath", "-u", PROGS).stdout.decode().strip()
for f in ("cudaenv.exe", "cudaenv-shim.exe", "cudaenv-install.exe", "cudaenv-probe.exe", "lib/cudaenv/zlibwapi.dll"):
    expect(os.path.isfile(os.path.join(local_unix, f)), f"{f} in {PROGS}")
# Never beside the programs: there it would be in `check`'s application folder.
expect(not os.path.exists(os.path.join(local_unix, "zlibwapi.dll")), "no zlibwapi.dll beside cudaenv.exe")
value = path_value()
expect(value == PROGS + ";" + SHIMS + ";" + OLD_PATH, "Path = programs;shims;old, nothing cut", value)
ver = text(run("cmd", "/d", "/c", "cudaenv --version"))
expect(ver.strip().startswith("cudaenv "), "cmd finds cudaenv through PATH", ver)
first = text(run("cmd", "/d", "/c", "for %i in (cudaenv.exe) do @echo %~$PATH:i"))
expect(first.strip().lower() == (PROGS + "\\cudaenv.exe").lower(), "PATH finds the installed copy first", first)

step = "twice"
after = snapshot()
run(EXE, "setup", "--install")
expect(snapshot() == after, "a second --install changes nothing in the registry")
expect(path_value().count(PROGS) == 1 and path_value().count(SHIMS) == 1, "each folder once")

step = "undo"
out = text(run(EXE, "setup", "--undo"))
print(out)
expect(snapshot() == before, "HKCU\\Environment and AutoRun exactly as before")
expect(not os.path.exists(local_unix), f"{PROGS} removed")
for prof in ("PowerShell", "WindowsPowerShell"):
    expect(not os.path.exists(os.path.join(DOCS, prof)), f"Documents\\{prof} removed (setup created it)")
expect(not os.path.exists(os.path.join(STORE, "setup.toml")), "setup.toml removed")
print("PASS")
