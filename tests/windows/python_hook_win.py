#!/usr/bin/env python3
"""Python's DLL hook on Windows, under Wine: a program that loads an
extension module importing cudnn64_8.dll the way Python 3.8+ does
(LoadLibraryExW with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR; pyload.c, built as python.exe) fails with
error 126 when the pair is only on PATH, loads the active pair's DLLs once the
folders of CUDAENV_DLL_DIRS are added with AddDllDirectory (what
python/cudaenv_dll_hook.py does), and the other pair's after a switch, in a
cmd session too; deactivate removes the variable. `cudaenv trace` names the
folder the hook added as where cudnn64_8.dll came from; `cudaenv doctor` says
when a venv's extension modules import CUDA DLLs and the hook is missing.

usage: python_hook_win.py <cudaenv.exe> <fakes dir> <python.exe> <cudaext.pyd> <work dir> [runner...]"""
import json
import os
import shutil
import sys

import wintest
from wintest import check

EXE, FAKES, PYLOAD, PYD, WORK = sys.argv[1:6]
RUNNER = sys.argv[6:]
CUDNN8 = ["cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
          "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"]


def win(path):
    return wintest.win_path(path, RUNNER)


ENV = {k: v for k, v in os.environ.items() if not k.startswith(("FAKECUDA", "FAKECUDNN", "CUDAENV_", "VIRTUAL_ENV"))}
ENV["CUDAENV_ROOT"] = win(os.path.join(WORK, "store"))


def run(*args, want=0, env=None):
    return wintest.run(RUNNER, args, env or ENV, 600, want)


def make_pair(base, cuda, cudnn):
    tk = os.path.join(WORK, base, "CUDA", "v" + cuda.rsplit(".", 1)[0])
    dnn = os.path.join(WORK, base, "cudnn-windows-x86_64-%s.29_cuda11-archive" % cudnn)
    os.makedirs(os.path.join(tk, "bin"))
    shutil.copy(os.path.join(FAKES, "cuda11", "cudart64_110.dll"), os.path.join(tk, "bin"))
    with open(os.path.join(tk, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' % cuda)
    os.makedirs(os.path.join(dnn, "bin"))
    os.makedirs(os.path.join(dnn, "include"))
    for dll in CUDNN8:
        shutil.copy(os.path.join(FAKES, "cudnn8", dll), os.path.join(dnn, "bin"))
    major, minor, patch = cudnn.split(".")
    with open(os.path.join(dnn, "include", "cudnn_version.h"), "w") as f:
        f.write("#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n" % (major, minor, patch))
    run(EXE, "add", win(tk))
    run(EXE, "add", win(dnn))
    return tk, dnn


def loaded_from(out, dll="cudnn64_8.dll"):
    for line in out.splitlines():
        if line.startswith("pyload: %s from " % dll):
            return line.split(" from ", 1)[1].lower()
    return None


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
TK_A, DNN_A = make_pair("a", "11.8.0", "8.9.7")
TK_B, DNN_B = make_pair("b", "11.7.1", "8.9.6")
A, B = "11.8+8.9.7", "11.7+8.9.6"

# The variable `use` sets: the pair's DLL folders in order (and zlibwapi.dll's
# folder, which cuDNN 8.3-8.9 needs and its own folder lacks here).
out, _ = run(EXE, "env", A, "--json")
dirs = json.loads(out)["set"].get("CUDAENV_DLL_DIRS", "").split(";")
check(dirs[:2] == [win(os.path.join(TK_A, "bin")), win(os.path.join(DNN_A, "bin"))],
      "CUDAENV_DLL_DIRS: the toolkit's bin, then cuDNN's bin", out)
check(len(dirs) == 3 and dirs[2].lower().endswith("\\lib\\cudaenv"), "and cudaenv's folder with zlibwapi.dll", out)

# Only on PATH: Python's way of loading fails with 126; LoadLibraryW (PATH) finds them.
out, _ = run(EXE, "exec", A, "--", win(PYLOAD), win(PYD), want=3)
check("pyload: error 126" in out, "LOAD_LIBRARY_SEARCH_DEFAULT_DIRS: error 126 with the pair only on PATH", out)
out, _ = run(EXE, "exec", A, "--", win(PYLOAD), "--plain", win(PYD))
check(loaded_from(out) == win(os.path.join(DNN_A, "bin", "cudnn64_8.dll")).lower(), "LoadLibraryW finds it on PATH", out)

# With the hook's folders added: the active pair's DLLs, then the other pair's.
for spec, tk, dnn in ((A, TK_A, DNN_A), (B, TK_B, DNN_B)):
    out, _ = run(EXE, "exec", spec, "--", win(PYLOAD), "--hook", win(PYD))
    check(loaded_from(out) == win(os.path.join(dnn, "bin", "cudnn64_8.dll")).lower(), "%s: its cudnn64_8.dll" % spec, out)
    check(loaded_from(out, "cudart64_110.dll") == win(os.path.join(tk, "bin", "cudart64_110.dll")).lower(),
          "%s: its cudart64_110.dll (cuDNN's import, through the hook's folders too)" % spec, out)

# A cmd session: use, the hook, use another pair, deactivate.
run(EXE, "init", "cmd")
shim = win(os.path.join(WORK, "store", "shims", "cudaenv.cmd"))
script = os.path.join(WORK, "session.cmd")
with open(script, "w", newline="\r\n") as f:
    f.write("@echo off\n"
            'set "PATH=%s;%%SystemRoot%%\\system32;%%SystemRoot%%"\n' % win(os.path.join(WORK, "store", "shims")) +
            "call cudaenv use %s\n" % A +
            '"%s" --hook "%s"\n' % (win(PYLOAD), win(PYD)) +
            "call cudaenv use %s\n" % B +
            '"%s" --hook "%s"\n' % (win(PYLOAD), win(PYD)) +
            "call cudaenv deactivate\n"
            "if defined CUDAENV_DLL_DIRS echo session: CUDAENV_DLL_DIRS is still set\n"
            "if not defined CUDAENV_DLL_DIRS echo session: CUDAENV_DLL_DIRS unset\n")
out, err = run("cmd", "/d", "/c", win(script))
got = [l.split(" from ", 1)[1].lower() for l in out.splitlines() if l.startswith("pyload: cudnn64_8.dll from ")]
check(got == [win(os.path.join(DNN_A, "bin", "cudnn64_8.dll")).lower(), win(os.path.join(DNN_B, "bin", "cudnn64_8.dll")).lower()],
      "cmd session: use A loads A's cuDNN, use B then B's", out + err)
check("session: CUDAENV_DLL_DIRS unset" in out, "deactivate removes CUDAENV_DLL_DIRS", out)

# trace: the folder each CUDA DLL of the Python process came from. The module
# carries CuPy's name for its cuDNN module: an extension module is no cuDNN.
report = os.path.join(WORK, "trace.json")
cupy = os.path.join(WORK, "cupy_backends", "cuda", "libs", "cudnn.cp312-win_amd64.pyd")
os.makedirs(os.path.dirname(cupy))
shutil.copy(PYD, cupy)
out, err = run(EXE, "trace", A, "--json=" + win(report), "--", win(PYLOAD), "--hook", win(cupy))
with open(report, encoding="utf-8") as f:
    libs = {l["name"].lower(): l for l in json.load(f)["libraries"]}
dnn = libs.get("cudnn64_8.dll", {})
check(dnn.get("how") == "dll-dirs" and dnn.get("origin") == "pair", "trace: cudnn64_8.dll through the hook's folders",
      json.dumps(libs, indent=2) + err)
check("os.add_dll_directory" in err, "trace says it in words", err)
check("verdict: all CUDA libraries came from 11.8.0+8.9.7" in err and "cudnn.cp312" not in err,
      "trace: the extension module named cudnn.*.pyd is not taken for a cuDNN library", err)

# doctor: a venv whose extension module imports cuDNN, without and with the hook.
venv = os.path.join(WORK, "venv")
site = os.path.join(venv, "Lib", "site-packages")
os.makedirs(os.path.join(site, "pkg"))
os.makedirs(os.path.join(site, "bundled"))
with open(os.path.join(venv, "pyvenv.cfg"), "w") as f:
    f.write("home = C:\\Python312\nversion = 3.12.4\n")
shutil.copy(PYD, os.path.join(site, "pkg", "cudaext.pyd"))
# A module whose cuDNN sits beside it (a wheel that bundles it) needs no hook.
shutil.copy(PYD, os.path.join(site, "bundled", "cudaext.pyd"))
shutil.copy(os.path.join(FAKES, "cudnn8", "cudnn64_8.dll"), os.path.join(site, "bundled"))


def doctor_topic():
    out, err = run(EXE, "doctor", "--json", want=None, env=dict(ENV, VIRTUAL_ENV=win(venv)))
    for t in json.loads(out)["findings"]:
        if t["topic"] == "python_dll_hook":
            return t
    return {}


t = doctor_topic()
check(t.get("status") == "warn" and "cudnn64_8.dll" in t.get("summary", "") and "setup --python" in t.get("advice", ""),
      "doctor: the venv lacks the hook while pkg\\cudaext.pyd imports cudnn64_8.dll", json.dumps(t, indent=2))
mods = t.get("details", {}).get("cuda_extensions", [])
check(len(mods) == 1 and mods[0]["imports"] == ["cudnn64_8.dll"], "doctor: only the module without its cuDNN beside it",
      json.dumps(t, indent=2))
shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "cudaenv_dll_hook.py"), site)
with open(os.path.join(site, "cudaenv_dll_hook.pth"), "w") as f:
    f.write("import cudaenv_dll_hook\n")
t = doctor_topic()
check(t.get("status") == "ok" and t.get("details", {}).get("hook") is True, "doctor: with the hook, ok",
      json.dumps(t, indent=2))

wintest.finish()
print("PASS")
