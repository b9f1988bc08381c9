#!/usr/bin/env python3
"""`cudaenv.exe inspect` of a PE file: the real fatbin bytes of Debian's CUDA
11.8 cuBLAS (tests/gpu/nvidia_debs.sh unpacks it; extracted with objcopy) in a
DLL built by this build's mingw-w64 compiler, in a section named `.nv_fatb` as
the Windows linker names it. The SASS and PTX lists cudaenv.exe reads (under
Wine in the cross build) must equal cuobjdump's on the ELF library.

usage: inspect_pe.py <cudaenv.exe> <host dll> <mingw objcopy> <work dir> [runner...]
Exits 77 (skipped) when the NVIDIA packages cannot be had."""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

import wine_retry

EXE, HOST, OBJCOPY, WORK = sys.argv[1:5]
RUNNER = sys.argv[5:]
HERE = os.path.dirname(os.path.abspath(__file__))


def win(path):
    path = os.path.abspath(path)
    return "Z:" + path.replace("/", "\\") if RUNNER else path


def counts(cuobjdump, lib, kind):
    out = subprocess.run([cuobjdump, f"--list-{kind}", lib], capture_output=True, text=True).stdout
    return dict(collections.Counter(m.group(1) for m in re.finditer(r"\.(sm_\d+a?)\.(?:cubin|ptx)$", out, re.M)))


def main():
    p = subprocess.run(["bash", os.path.join(HERE, "..", "gpu", "nvidia_debs.sh")], capture_output=True, text=True)
    if p.returncode == 77:
        print(p.stderr)
        return 77
    debs = p.stdout.strip()
    lib = os.path.join(debs, "usr/lib/x86_64-linux-gnu/libcublas.so.11.11.3.6")
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    blob = os.path.join(WORK, "cublas.fatbin")
    subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", lib, blob], check=True)
    dll = os.path.join(WORK, "cublas_fatbin.dll")
    subprocess.run([OBJCOPY, "--add-section", f".nv_fatb={blob}", "--set-section-flags",
                    ".nv_fatb=contents,alloc,load,readonly,data", HOST, dll], check=True, capture_output=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV_")}
    env["CUDAENV_ROOT"] = win(os.path.join(WORK, "store"))
    r = wine_retry.run(RUNNER + [EXE, "inspect", win(dll), "--json", "--gpu", "sm_90"], env=env, timeout=600)
    if r.returncode != 0:
        print(r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace"))
        print("FAIL: cudaenv.exe inspect failed")
        return 1
    f = json.loads(r.stdout.decode())["files"][0]
    cuobjdump = os.path.join(debs, "usr/bin/cuobjdump")
    got = (f["sass"], {k.replace("compute_", "sm_"): v for k, v in f["ptx"].items()})
    want = (counts(cuobjdump, lib, "elf"), counts(cuobjdump, lib, "ptx"))
    if f["format"] != "pe" or got != want:
        print(f"FAIL: cudaenv.exe read {f['format']} {got}, cuobjdump lists {want}")
        return 1
    print(f"ok: cudaenv.exe reads {sum(got[0].values())} SASS and {sum(got[1].values())} PTX entries, as cuobjdump")
    return 0


if __name__ == "__main__":
    sys.exit(main())
