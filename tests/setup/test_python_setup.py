#!/usr/bin/env python3
"""`cudaenv setup --python <venv>` in a real venv (python3 -m venv): the .pth
and the module in its site-packages, the module byte for byte the one in
python/, imported by the venv's Python at its start; `setup --undo` (and
`setup --python <venv> --undo`) leave the venv byte for byte as it was,
the bytecode Python compiled from the module included. Files setup did not
write are refused, and one changed since stops the undo.

usage: test_python_setup.py <cudaenv> <python/cudaenv_dll_hook.py> <work dir>"""
import os
import shutil
import subprocess
import sys

CUDAENV, MODULE, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def snapshot(root):
    """Every folder and file below `root`, with each file's bytes and mode."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        out[rel + "/"] = None
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                out[os.path.join(rel, name)] = ("link", os.readlink(path))
            else:
                with open(path, "rb") as f:
                    out[os.path.join(rel, name)] = (os.stat(path).st_mode, f.read())
    return out


def diff(a, b):
    return sorted(set(a) ^ set(b)) + sorted(k for k in set(a) & set(b) if a[k] != b[k])


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
ENV = {"PATH": os.environ["PATH"], "CUDAENV_ROOT": os.path.join(WORK, "store"), "HOME": os.path.join(WORK, "home"),
       "LANG": "C.UTF-8"}
os.makedirs(ENV["HOME"])


def cudaenv(*args, want=0):
    r = subprocess.run([CUDAENV, *args], env=ENV, capture_output=True, text=True, cwd=WORK)
    check(r.returncode == want, "cudaenv %s: exit %d, wanted %d\n%s%s" % (" ".join(args), r.returncode, want, r.stdout, r.stderr))
    return r


venv = os.path.join(WORK, "venv 张三 & $x")
r = subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], capture_output=True, text=True)
if r.returncode != 0:
    print("SKIP: python3 -m venv does not work here (Debian: apt install python3-venv):", r.stderr)
    sys.exit(77)
py = os.path.join(venv, "bin", "python")
site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], capture_output=True,
                      text=True).stdout.strip()
check(os.path.isdir(site), "the venv's site-packages: %r" % site)
before = snapshot(venv)

# Set up, by the venv's folder.
r = cudaenv("setup", "--python", venv)
check("added the DLL hook" in r.stdout, "says what it added: %s" % r.stdout)
pth = os.path.join(site, "cudaenv_dll_hook.pth")
mod = os.path.join(site, "cudaenv_dll_hook.py")
check(open(mod, "rb").read() == open(MODULE, "rb").read(), "the module is python/cudaenv_dll_hook.py byte for byte")
PTH_LINE = ('import os; os.environ.get("CUDAENV_DLL_DIRS") and hasattr(os, "add_dll_directory") and '
            '__import__("cudaenv_dll_hook")')
check(open(pth).read().splitlines()[-1] == PTH_LINE, "the .pth imports it where it has work: %r" % open(pth).read())
pyc = os.path.join(site, "__pycache__", "cudaenv_dll_hook.%s.pyc" % sys.implementation.cache_tag)
check(sorted(diff(before, snapshot(venv))) ==
      sorted([os.path.relpath(pth, venv), os.path.relpath(mod, venv), os.path.relpath(pyc, venv), "lib/python%d.%d/site-packages/__pycache__/" % sys.version_info[:2]]),
      "setup added the two files and the module's bytecode: %s" % diff(before, snapshot(venv)))

# The venv's Python at its start, as on Windows: os.add_dll_directory exists
# (a recorder here), then site runs the venv's .pth files (python -S, then site.main()).
AT_START = ("import os, sys; calls = []; os.add_dll_directory = lambda p: calls.append(p) or p; import site; "
            "site.main(); print(calls, 'cudaenv_dll_hook' in sys.modules)")
dirs = [os.path.join(WORK, "bin"), os.path.join(WORK, "cu;dnn", "bin")]
for d in dirs:
    os.makedirs(d, exist_ok=True)
value = '%s;"%s";rel' % tuple(dirs)
for extra, want, err in (({}, "[] False\n", ""),
                         ({"CUDAENV_DLL_DIRS": value}, "%r True\n" % dirs, "skipped 'rel'"),
                         ({"CUDAENV_DLL_DIRS": value, "PYTHONOPTIMIZE": "1"}, "%r True\n" % dirs, "skipped 'rel'")):
    r = subprocess.run([py, "-S", "-c", AT_START], capture_output=True, text=True, env=dict(ENV, **extra))
    check(r.returncode == 0 and r.stdout == want and err in r.stderr and len(r.stderr.splitlines()) == (1 if err else 0),
          "at start (%s): %r" % (extra, r))
# A plain start on Linux: no os.add_dll_directory, the module is not even imported.
r = subprocess.run([py, "-c", "import sys; print('cudaenv_dll_hook' in sys.modules)"], capture_output=True, text=True,
                   env=dict(ENV, CUDAENV_DLL_DIRS=value))
check((r.returncode, r.stdout, r.stderr) == (0, "False\n", ""), "Linux: not imported: %r" % r)
check(os.path.isdir(os.path.join(site, "__pycache__")), "Python compiled it (premise of the undo below)")

# Again: nothing changes (its own files, the same bytes); by the interpreter's path too.
cudaenv("setup", "--python", venv)
cudaenv("setup", "--python", py)
with open(os.path.join(ENV["CUDAENV_ROOT"], "setup.toml")) as f:
    check(f.read().count("[[python]]") == 1, "one record for the one environment")

# setup --undo: the venv as it was, byte for byte, __pycache__ and its .pyc files gone.
cudaenv("setup", "--undo")
check(diff(before, snapshot(venv)) == [], "after --undo the venv is as it was: %s" % diff(before, snapshot(venv)))
check(not os.path.exists(os.path.join(ENV["CUDAENV_ROOT"], "setup.toml")), "setup.toml has nothing left to keep")

# The same with `--python <venv> --undo`.
cudaenv("setup", "--python", venv)
subprocess.run([py, "-c", "pass"], env=ENV)
cudaenv("setup", "--python", venv, "--undo")
check(diff(before, snapshot(venv)) == [], "after --python --undo the venv is as it was: %s" % diff(before, snapshot(venv)))

# Refused: a file of the same name that setup did not write; nothing written.
with open(mod, "w") as f:
    f.write("# mine\n")
r = cudaenv("setup", "--python", venv, want=1)
check(r.stderr.startswith("cudaenv: error: ") and "did not put it there" in r.stderr, "says why: %s" % r.stderr)
check(not os.path.exists(pth), "no .pth written")
os.remove(mod)

# Changed since: the undo refuses and removes nothing.
cudaenv("setup", "--python", venv)
with open(pth, "a") as f:
    f.write("import antigravity_not\n")
r = cudaenv("setup", "--undo", want=1)
check("was changed since" in r.stderr and os.path.exists(mod), "undo refuses an edited .pth: %s" % r.stderr)

# The edit taken back by hand, the undo goes through.
with open(pth) as f:
    text = f.read()
with open(pth, "w") as f:
    f.write(text.replace("import antigravity_not\n", ""))
cudaenv("setup", "--undo")
check(diff(before, snapshot(venv)) == [], "the edit taken back, --undo works: %s" % diff(before, snapshot(venv)))

# kernel add --dll-hook: the same hook for a Jupyter kernel's interpreter, undone by setup --undo.
tk = os.path.join(WORK, "cuda-12.4")
os.makedirs(os.path.join(tk, "bin"))
os.makedirs(os.path.join(tk, "lib64"))
with open(os.path.join(tk, "bin", "nvcc"), "w") as f:
    f.write("#!/bin/sh\n")
os.chmod(os.path.join(tk, "bin", "nvcc"), 0o755)
open(os.path.join(tk, "lib64", "libcudart.so.12"), "w").close()
with open(os.path.join(tk, "version.json"), "w") as f:
    f.write('{"cuda": {"name": "CUDA SDK", "version": "12.4.131"}}\n')
cudaenv("add", tk)
r = cudaenv("kernel", "add", "12.4", "--python", py, "--prefix", os.path.join(WORK, "jupyter"), "--dll-hook")
check(os.path.isfile(pth) and open(mod, "rb").read() == open(MODULE, "rb").read(), "kernel add --dll-hook: the hook is in")
cudaenv("setup", "--undo")
check(diff(before, snapshot(venv)) == [], "kernel add --dll-hook, then setup --undo: as it was: %s" % diff(before, snapshot(venv)))

# No such Python.
r = cudaenv("setup", "--python", os.path.join(WORK, "nothing here"), want=1)
check(r.stderr.startswith("cudaenv: error: no Python at"), "a missing interpreter: %s" % r.stderr)
r = cudaenv("setup", "bash", "--python", venv, want=2)

if failures:
    sys.exit(1)
print("setup --python: ok")
