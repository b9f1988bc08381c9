"""Shared by the clients and modules suites: synthetic toolkits that carry
what CMake's FindCUDAToolkit reads, adopted into a temporary store. Stdlib only."""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from fixture import WEIRD_A, WEIRD_B, make_cudnn, write  # noqa: E402

NVCC = """#!/bin/sh
# Answers like NVIDIA's nvcc; anything else is not a compiler here.
if [ "$1" = "--version" ]; then
cat <<'OUT'
nvcc: NVIDIA (R) Cuda compiler driver
Copyright (c) 2005-2024 NVIDIA Corporation
Built on Tue_Oct_29_23:50:19_PDT_2024
Cuda compilation tools, release %(mm)s, V%(full)s
Build cuda_%(mm)s.r%(mm)s/compiler.35059454_0
OUT
exit 0
fi
echo "nvcc (synthetic %(full)s): only --version is answered" >&2
exit 1
"""


def paths(*names):
    """The paths a client test is given (--cudaenv BIN, --fakes DIR, ...), each required."""
    ap = argparse.ArgumentParser()
    for n in names:
        ap.add_argument("--" + n, required=True)
    return ap.parse_args()


def empty_entry(value):
    """A search-path list with an empty entry (the current folder to the loader and
    the shells, issue 29.2): empty, or a leading, trailing or doubled ':'."""
    return value == "" or value.startswith(":") or value.endswith(":") or "::" in value


def make_toolkit(root, full):
    """bin/nvcc, version.json, include/cuda_runtime.h (+ _api.h), lib64/libcudart.so*."""
    major, minor, patch = full.split(".")
    mm = "%s.%s" % (major, minor)
    write(os.path.join(root, "bin", "nvcc"), NVCC % {"mm": mm, "full": full}, 0o755)
    write(os.path.join(root, "version.json"),
          json.dumps({"cuda": {"name": "CUDA SDK", "version": full},
                      "cuda_cudart": {"name": "CUDA Runtime (cudart)", "version": full}}))
    write(os.path.join(root, "include", "cuda_runtime_api.h"),
          "#define CUDART_VERSION %d\n" % (int(major) * 1000 + int(minor) * 10))
    write(os.path.join(root, "include", "cuda_runtime.h"), '#include "cuda_runtime_api.h"\n')
    lib = os.path.join(root, "lib64")
    write(os.path.join(lib, "libcudart.so.%s" % full), "synthetic\n")
    os.symlink("libcudart.so.%s" % full, os.path.join(lib, "libcudart.so.%s" % major))
    os.symlink("libcudart.so.%s" % major, os.path.join(lib, "libcudart.so"))


class Pairs:
    """Two pairs, 11.8.89+8.9.7 and 12.4.131+9.1.0, in folders named `base_a`
    and `base_b` below a temp folder, adopted into a temporary CUDAENV_ROOT."""

    def __init__(self, cudaenv, base_a=WEIRD_A, base_b=WEIRD_B, prefix="cudaenv-clients-"):
        self.tmp = tempfile.mkdtemp(prefix=prefix)
        self.cudaenv = os.path.abspath(cudaenv)
        a = os.path.join(self.tmp, base_a)
        b = os.path.join(self.tmp, base_b)
        self.cuda118 = os.path.join(a, "cuda-11.8")
        self.cuda124 = os.path.join(b, "cuda 12.4")
        self.cudnn8 = os.path.join(a, "cudnn-linux-x86_64-8.9.7.29_cuda11-archive")
        self.cudnn9 = os.path.join(b, "cudnn-linux-x86_64-9.1.0.70_cuda12-archive")
        make_toolkit(self.cuda118, "11.8.89")
        make_toolkit(self.cuda124, "12.4.131")
        make_cudnn(self.cudnn8, "8.9.7")
        make_cudnn(self.cudnn9, "9.1.0")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)
        self.root = os.path.join(self.tmp, "store")
        for d in (self.cuda118, self.cuda124, self.cudnn8, self.cudnn9):
            r = self.run("add", d)
            if r.returncode != 0:
                raise RuntimeError("cudaenv add %s failed: %s" % (d, r.stderr))

    def env(self, **extra):
        e = {
            "HOME": self.home,
            "CUDAENV_ROOT": self.root,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
        }
        e.update(extra)
        return e

    def run(self, *args, env=None, cwd=None, input=None):
        return subprocess.run([self.cudaenv, *args], env=env or self.env(), cwd=cwd or self.tmp,
                              capture_output=True, text=True, input=input)

    def env_json(self, spec, env=None):
        r = self.run("env", spec, "--json", env=env)
        if r.returncode != 0:
            raise AssertionError("cudaenv env %s --json: %s" % (spec, r.stderr))
        return json.loads(r.stdout)

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def finish(self):
        """Removes the temp folder, or keeps it and says where with CUDAENV_TEST_KEEP=1."""
        if os.environ.get("CUDAENV_TEST_KEEP"):
            print("kept", self.tmp)
        else:
            self.cleanup()


class Checks:
    """Counts assertions and reports each failure, so a run shows all of them."""

    def __init__(self):
        self.passed = 0
        self.failed = []

    def eq(self, got, want, what):
        if got == want:
            self.passed += 1
        else:
            self.failed.append("%s:\n   got  %r\n   want %r" % (what, got, want))

    def true(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed.append(what)

    def done(self, name):
        for f in self.failed:
            print("FAIL", f)
        print("%s: %d passed, %d failed" % (name, self.passed, len(self.failed)))
        return 1 if self.failed else 0

def parse_github_env(text):
    """GitHub's runner reads NAME=value lines and NAME<<DELIMITER blocks."""
    out, lines, i = {}, text.split("\n"), 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            value = []
            while lines[i] != delim:
                value.append(lines[i])
                i += 1
            i += 1
            out[name] = "\n".join(value)
        else:
            name, value = line.split("=", 1)
            out[name] = value
    return out
