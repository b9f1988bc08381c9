#!/usr/bin/env python3
"""`cudaenv check` on Windows against the fake CUDA runtime and cuDNN 8 DLLs
that tests/fakes builds under NVIDIA's Windows names (cudart64_110.dll,
cudnn64_8.dll, cudnn_*64_8.dll). See fake_cudart.cpp / fake_cudnn.cpp for the
FAKECUDA_* / FAKECUDNN_* switches.

usage: check_win.py <case> <cudaenv.exe> <fakes dir> <work dir> [runner...]

The runner (cmake/wine-run.sh and its prefix in the cross build, nothing on
Windows) starts the .exe; folders are made here and handed to cudaenv as
Windows paths (Wine maps / to Z:)."""
import json
import os
import shutil
import sys

import wine_retry

CASE, EXE, FAKES, WORK = sys.argv[1:5]
RUNNER = sys.argv[5:]
SMALL = ["--shape", "2x8x12x12x8", "--runs", "20"]
CUDNN8 = ["cudnn64_8.dll", "cudnn_ops_infer64_8.dll", "cudnn_ops_train64_8.dll", "cudnn_cnn_infer64_8.dll",
          "cudnn_cnn_train64_8.dll", "cudnn_adv_infer64_8.dll", "cudnn_adv_train64_8.dll"]


def win(path):
    """`path` as the Windows program sees it."""
    path = os.path.abspath(path)
    return "Z:" + path.replace("/", "\\") if RUNNER else path


def fail(msg, text=None):
    if text is not None:
        print(text[:8000])
    print(f"FAIL [{CASE}]: {msg}")
    sys.exit(1)


def expect(cond, msg, text=None):
    if not cond:
        fail(msg, text)


ENV = {k: v for k, v in os.environ.items()
       if not k.startswith(("FAKECUDA", "FAKECUDNN", "CUDAENV_"))}
ENV["CUDAENV_ROOT"] = win(os.path.join(WORK, "store"))


def run(want, *args, **fake_env):
    """Runs cudaenv with FAKE* variables; returns (stdout, stderr), LF line ends."""
    env = dict(ENV, **{k: str(v) for k, v in fake_env.items()})
    p = wine_retry.run(RUNNER + [EXE, *args], env=env, timeout=600)
    out = p.stdout.decode("utf-8", "replace").replace("\r\n", "\n")
    err = p.stderr.decode("utf-8", "replace").replace("\r\n", "\n")
    if p.returncode != want:
        fail(f"exit {p.returncode}, wanted {want}: cudaenv {' '.join(args)}", f"--- stdout\n{out}\n--- stderr\n{err}")
    return out, err


def check_json(want, *args, **fake_env):
    out, _ = run(want, "check", "11.8", "--json", *args, **fake_env)
    try:
        j = json.loads(out)
    except ValueError as e:
        fail(f"not JSON ({e})", out)
    expect(len(j["pairs"]) == 1, "one pair", out)
    return j, out


def steps(j):
    return {s["step"]: s for s in j["pairs"][0]["steps"]}


def is_(got, want, what, text):
    expect(got == want, f"{what} = {got!r}, wanted {want!r}", text)


def has(text, part, what):
    expect(part in text, f"{what}: missing {part!r}", text)


# A toolkit laid out as NVIDIA's installer does, under a folder with spaces,
# and the cuDNN 8.9.7 archive for CUDA 11 unpacked beside it.
TK = os.path.join(WORK, "Program Files", "NVIDIA GPU Computing Toolkit", "CUDA", "v11.8")
DNN = os.path.join(WORK, "cudnn & co", "cudnn-windows-x86_64-8.9.7.29_cuda11-archive")
shutil.rmtree(WORK, ignore_errors=True)
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
WTK, WDNN = win(TK), win(DNN)
CUDART = WTK + "\\bin\\cudart64_110.dll"


def same_path(a, b):
    return a is not None and a.lower() == b.lower()  # Windows file names fold case


if CASE == "pass":
    j, out = check_json(0, *SMALL)
    is_(j["pass"], True, "pass", out)
    p = j["pairs"][0]
    is_(p["spec"], "11.8.0+8.9.7", "spec", out)
    is_(p["status"], "pass", "status", out)
    is_(p["toolkit"], WTK, "toolkit", out)
    is_(p["cudnn"], WDNN, "cudnn", out)
    s = steps(j)
    is_(list(s), ["files", "load", "origins", "versions", "gpu", "conv", "conv_fp16"], "steps", out)
    for name, st in s.items():
        is_(st["status"], "ok", f"{name} status", out)
    # files: cudart from the toolkit's bin\, the 7 cuDNN 8 DLLs from its bin\.
    files = {f["name"]: f for f in s["files"]["details"]["files"]}
    is_(files["cudart64_110.dll"]["path"], CUDART, "cudart path", out)
    is_(files["cudart64_110.dll"]["folder"], WTK + "\\bin", "cudart folder", out)
    for dll in CUDNN8:
        is_(files[dll]["path"], WDNN + "\\bin\\" + dll, f"{dll} path", out)
        is_(files[dll]["group"], "cudnn", f"{dll} group", out)
        is_(files[dll]["required"], True, f"{dll} required", out)
    is_(s["files"]["summary"], "8 of 8 required libraries found", "files summary", out)
    # load: each by its absolute path, every symbol resolved.
    libs = s["load"]["details"]["libraries"]
    is_([l["name"] for l in libs], ["cudart64_110.dll"] + CUDNN8, "loaded names", out)
    for l in libs:
        is_(l["loaded"], True, f"{l['name']} loaded", out)
        is_(l["error"], None, f"{l['name']} error", out)
        is_(l["path"], files[l["name"]]["path"], f"{l['name']} load path", out)
    is_(s["load"]["details"]["missing_symbols"], {"cudart": [], "cudnn": []}, "missing symbols", out)
    is_(s["load"]["summary"], "8 libraries loaded by absolute path, every symbol resolved", "load summary", out)
    # origins: the process's modules, as Windows lists them, all from the pair.
    loaded = {l["name"].lower(): l for l in s["origins"]["details"]["loaded"]}
    is_(sorted(loaded), sorted(n.lower() for n in ["cudart64_110.dll"] + CUDNN8), "CUDA modules in the process", out)
    for name, l in loaded.items():
        is_(l["origin"], "pair", f"{name} origin", out)
        expect(same_path(l["path"], files[next(f for f in files if f.lower() == name)]["path"]), f"{name} module path", out)
    # versions: what the DLLs report against the files.
    v = s["versions"]["details"]
    is_(v["toolkit_version_files"], "11.8.0", "toolkit version", out)
    is_(v["toolkit_version_source"], "version.json", "toolkit version source", out)
    is_(v["cudaRuntimeGetVersion"], {"status": "cudaSuccess", "value": 11080}, "cudaRuntimeGetVersion", out)
    is_(v["cudaDriverGetVersion"], {"status": "cudaSuccess", "value": 13000}, "cudaDriverGetVersion", out)
    is_(v["cudnnGetVersion"]["value"], 8907, "cudnnGetVersion", out)
    is_(v["cudnnGetVersion"]["decoded"], "8.9.7", "cudnnGetVersion decoded", out)
    is_(v["cudnnGetCudartVersion"], 11080, "cudnnGetCudartVersion", out)
    is_(v["support_matrix"], "fits", "support matrix", out)
    is_(s["versions"]["summary"], "runtime 11.8; cuDNN 8.9.7; built with CUDA 11.8", "versions summary", out)
    # gpu and conv: the fake's simulated GPU (compute capability 9.0, 132 SMs).
    g = s["gpu"]["details"]
    is_(g["compute_capability"], "9.0", "compute capability", out)
    is_(g["devices"], 1, "devices", out)
    is_(g["multiprocessors"], 132, "multiprocessors", out)
    is_(g["driver_cuda"], "13.0", "driver CUDA", out)
    c = s["conv"]["details"]
    is_(c["runs"], 20, "runs", out)
    is_(c["shape"], "N2 C8 12x12 K8 3x3", "shape", out)
    is_(c["dtype"], "float32", "dtype", out)
    is_(c["tf32_possible"], True, "tf32", out)
    expect(c["rel_error"] < 1e-3, "conv rel_error", out)
    is_(s["conv_fp16"]["details"]["dtype"], "float16", "fp16 dtype", out)
    expect(s["conv_fp16"]["details"]["rel_error"] < 5e-3, "fp16 rel_error", out)
    with open(os.path.join(WORK, "store", "checks.toml"), encoding="utf-8") as f:
        has(f.read(), "status = 'pass'", "checks.toml")
    out, _ = run(0, "check", "11.8", *SMALL)
    has(out, "11.8.0+8.9.7: PASS", "text report")
    has(out, "8 of 8 required libraries found", "text report")
    out, _ = run(0, "list")
    has(out, "pass: fp32", "list")

elif CASE == "missing_dep":
    # Builds of two sub-DLLs that import what real cuDNN 8 DLLs import:
    # cudnn_cnn_infer64_8.dll zlibwapi.dll (beside it, or the load fails with
    # 126), cudnn_ops_infer64_8.dll the toolkit's cublasLt64_11.dll (in the
    # toolkit's bin\, which is neither beside it nor searched through PATH).
    for dll in ["cudnn_cnn_infer64_8.dll", "cudnn_ops_infer64_8.dll"]:
        shutil.copy(os.path.join(FAKES, "cudnn8-dep", dll), os.path.join(DNN, "bin"))
    zlib = os.path.join(DNN, "bin", "zlibwapi.dll")
    shutil.copy(os.path.join(FAKES, "cudnn8-dep", "dep", "zlibwapi.dll"), zlib)
    cublas = os.path.join(TK, "bin", "cublasLt64_11.dll")
    shutil.copy(os.path.join(FAKES, "cuda11", "cublasLt64_11.dll"), cublas)
    j, out = check_json(0, *SMALL)
    s = steps(j)
    is_(s["load"]["status"], "ok", "load with every dependency in place", out)
    loaded = {l["name"].lower(): l for l in s["origins"]["details"]["loaded"]}
    expect(same_path(loaded.get("cublaslt64_11.dll", {}).get("path"), WTK + "\\bin\\cublasLt64_11.dll"),
           "cublasLt64_11.dll loaded from the toolkit's bin", out)
    is_(loaded["cublaslt64_11.dll"]["origin"], "pair", "cublasLt64_11.dll origin", out)

    def load_fails(sub, missing):
        j, out = check_json(1, *SMALL)
        is_(j["pass"], False, "pass", out)
        s = steps(j)
        is_(list(s), ["files", "load", "origins"], "steps", out)
        is_(s["files"]["status"], "ok", "files status", out)
        is_(s["load"]["status"], "fail", "load status", out)
        summary = s["load"]["summary"]
        has(summary, f"cannot load {sub}: error 126: ", "load summary")
        has(summary, f"(the file exists; missing: {missing}, not next to it, in {WTK}\\bin, "
                     "in the application folder or in System32)", "load summary")
        libs = {l["name"]: l for l in s["load"]["details"]["libraries"]}
        is_(libs[sub]["loaded"], False, f"{sub} loaded", out)
        is_(libs[sub]["path"], WDNN + "\\bin\\" + sub, f"{sub} path", out)
        has(libs[sub]["error"], missing, f"{sub} error")
        for name in ["cudart64_110.dll"] + [d for d in CUDNN8 if d != sub]:
            is_(libs[name]["loaded"], True, f"{name} loaded", out)
        has(s["load"]["advice"], "a library it needs is missing", "load advice")
        is_(j["pairs"][0]["summary"], "load: " + summary, "pair summary", out)

    os.remove(zlib)
    load_fails("cudnn_cnn_infer64_8.dll", "zlibwapi.dll")
    out, _ = run(1, "check", "11.8", *SMALL)
    has(out, "missing: zlibwapi.dll", "text report")
    shutil.copy(os.path.join(FAKES, "cudnn8-dep", "dep", "zlibwapi.dll"), zlib)
    os.remove(cublas)
    load_fails("cudnn_ops_infer64_8.dll", "cublasLt64_11.dll")
    shutil.copy(os.path.join(FAKES, "cuda11", "cublasLt64_11.dll"), cublas)
    adv = os.path.join(DNN, "bin", "cudnn_adv_infer64_8.dll")
    # A file that is no DLL at all: the loader's own error (193), no dependency hunt.
    with open(adv, "w") as f:
        f.write("not a library\n")
    j, out = check_json(1, *SMALL)
    summary = steps(j)["load"]["summary"]
    has(summary, "cannot load cudnn_adv_infer64_8.dll: error 193: ", "load summary")
    expect("missing:" not in summary, "no dependency named for a broken file", out)
    # A sub-DLL that is gone fails the files step before anything is loaded.
    os.remove(adv)
    j, out = check_json(1, *SMALL)
    s = steps(j)
    is_(list(s), ["files"], "steps", out)
    is_(s["files"]["summary"], "missing: cudnn_adv_infer64_8.dll", "files summary", out)
    has(s["files"]["advice"], "every one of its 7 libraries", "files advice")

elif CASE == "faults":
    # No driver: steps 1-3 pass, the GPU step fails with the advice.
    j, out = check_json(1, *SMALL, FAKECUDA_DRIVER_VERSION=0)
    s = steps(j)
    for name in ["files", "load", "origins", "versions"]:
        is_(s[name]["status"], "ok", f"{name} status", out)
    is_(s["gpu"]["status"], "fail", "gpu status", out)
    has(s["gpu"]["summary"], "no NVIDIA driver on this machine", "gpu summary")
    has(s["gpu"]["advice"], "Install the NVIDIA driver (", "gpu advice")
    expect("conv" not in s, "no conv without a driver", out)
    out, _ = run(1, "check", "11.8", *SMALL, FAKECUDA_DRIVER_VERSION=0)
    has(out, "advice: Install the NVIDIA driver", "text report")
    # A driver but no device.
    j, out = check_json(1, *SMALL, FAKECUDA_DEVICES=0)
    g = steps(j)["gpu"]
    is_(g["summary"], "the driver sees no GPU", "gpu summary", out)
    has(g["advice"], "The driver sees no NVIDIA GPU", "gpu advice")
    # cuDNN 8's own status numbers, named and advised.
    j, out = check_json(1, *SMALL, FAKECUDNN_STATUS="cudnnCreate:1")
    c = steps(j)["conv"]
    is_(c["status"], "fail", "conv status", out)
    has(c["summary"], "cudnnCreate failed: CUDNN_STATUS_NOT_INITIALIZED", "conv summary")
    has(c["advice"], "cuDNN could not initialise the GPU", "conv advice")
    is_(j["pairs"][0]["advice"], c["advice"], "pair advice", out)
    out, _ = run(1, "check", "11.8", *SMALL, FAKECUDNN_STATUS="cudnnConvolutionForward:6")
    has(out, "CUDNN_STATUS_ARCH_MISMATCH", "text report")
    has(out, "advice: This cuDNN does not support the GPU's architecture", "text report")

elif CASE == "crash":
    # An access violation in cuDNN ends only the probe process.
    j, out = check_json(1, *SMALL, FAKECUDNN_CRASH="cudnnCreate")
    c = steps(j)["conv"]
    is_(c["summary"], "the check process crashed (access violation (0xC0000005)) during this step", "conv summary", out)
    has(c["advice"], "crashed the process", "conv advice")
    # A hang is cut off by the timeout.
    j, out = check_json(1, "--timeout", "3", *SMALL, FAKECUDNN_HANG="cudnnFindConvolutionForwardAlgorithm")
    c = steps(j)["conv"]
    is_(c["summary"], "the check process timed out after 3.00 s during this step", "conv summary", out)
    has(c["advice"], "hung", "conv advice")

else:
    fail("unknown case")
print(f"ok [{CASE}]")
