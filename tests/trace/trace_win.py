#!/usr/bin/env python3
"""`cudaenv trace` on Windows (the debug API) against the fake cudart64_110.dll
and cuDNN 8 DLLs from tests/fakes.

usage: trace_win.py <case> <cudaenv.exe> <fakes dir> <loader.exe> <work dir> [runner...]

The runner (cmake/wine-run.sh and its prefix in the cross build, nothing on
Windows) starts the .exe; paths handed to Windows programs are Z:\\... under Wine."""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "windows"))
import wine_retry  # noqa: E402

CASE, EXE, FAKES, LOADER, WORK = sys.argv[1:6]
RUNNER = sys.argv[6:]
CUDNN8 = ["cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
          "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"]


def win(path):
    path = os.path.abspath(path)
    return "Z:" + path.replace("/", "\\") if RUNNER else path


def fail(msg, text=""):
    print(text[:8000])
    print(f"FAIL [{CASE}]: {msg}")
    sys.exit(1)


ENV = {k: v for k, v in os.environ.items() if not k.startswith(("FAKECUDA", "FAKECUDNN", "CUDAENV_"))}
ENV["CUDAENV_ROOT"] = win(os.path.join(WORK, "store"))


def run(want, *args):
    p = wine_retry.run(RUNNER + [EXE, *args], env=ENV, timeout=600)
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    err = p.stderr.decode("utf-8", "replace").replace("\r\n", "\n")
    if p.returncode != want:
        fail(f"exit {p.returncode}, wanted {want}: cudaenv {' '.join(args)}", f"--- stdout\n{out}\n--- stderr\n{err}")
    return out, err


shutil.rmtree(WORK, ignore_errors=True)
TK = os.path.join(WORK, "CUDA", "v11.8")
DNN = os.path.join(WORK, "cudnn-windows-x86_64-8.9.7.29_cuda11-archive")
os.makedirs(os.path.join(TK, "bin"))
shutil.copy(os.path.join(FAKES, "cuda11", "cudart64_110.dll"), os.path.join(TK, "bin"))
with open(os.path.join(TK, "version.json"), "w") as f:
    f.write('{"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}\n')
os.makedirs(os.path.join(DNN, "bin"))
os.makedirs(os.path.join(DNN, "include"))
for dll in CUDNN8:
    shutil.copy(os.path.join(FAKES, "cudnn8", dll), os.path.join(DNN, "bin"))
with open(os.path.join(DNN, "include", "cudnn_version.h"), "w") as f:
    f.write("#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n")
run(0, "add", win(TK))
run(0, "add", win(DNN))
REPORT = os.path.join(WORK, "report.json")


def trace(want, loader, *dlls):
    out, err = run(want, "trace", "11.8", "--json=" + win(REPORT), "--", win(loader), *dlls)
    with open(REPORT, encoding="utf-8") as f:
        return json.load(f), out, err


def lib(j, name):
    for l in j["libraries"]:
        if l["name"].lower() == name.lower():
            return l
    fail(f"{name} not traced", json.dumps(j, indent=2))


if CASE == "path":
    # Loaded by name: found on PATH, in the pair's folders.
    j, out, err = trace(0, LOADER, "cudart64_110.dll", "cudnn64_8.dll", "cudnn_ops_infer64_8.dll")
    if "loader: 3 of 3 loaded" not in out:
        fail("program output", out)
    for name in ("cudart64_110.dll", "cudnn64_8.dll", "cudnn_ops_infer64_8.dll"):
        l = lib(j, name)
        if l["origin"] != "pair" or l["how"] != "path":
            fail(f"{name}: origin {l['origin']} how {l['how']}", json.dumps(j, indent=2))
    if lib(j, "cudnn64_8.dll")["version"] != "8.9.7":
        fail("cudnn version", json.dumps(j, indent=2))
    if "verdict: all CUDA libraries came from 11.8.0+8.9.7" not in err:
        fail("verdict", err)
elif CASE == "app_folder":
    # A copy of cuDNN in the program's own folder wins over PATH.
    app = os.path.join(WORK, "app")
    os.makedirs(app)
    shutil.copy(LOADER, app)
    shutil.copy(os.path.join(FAKES, "cudnn8", "cudnn64_8.dll"), app)
    j, out, err = trace(0, os.path.join(app, os.path.basename(LOADER)), "cudnn64_8.dll")
    l = lib(j, "cudnn64_8.dll")
    if l["origin"] == "pair" or l["how"] != "app-folder" or l["ok"]:
        fail("the app-folder copy", json.dumps(j, indent=2))
    if "found in the application's folder" not in err or "Windows searches the application's folder before PATH" not in err:
        fail("verdict does not name the application folder", err)
    if lib(j, "cudart64_110.dll")["origin"] != "pair":
        fail("cudart comes from the pair", json.dumps(j, indent=2))
else:
    fail("unknown case")
print(f"ok [{CASE}]")
