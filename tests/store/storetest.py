"""Shared helpers of the store suites: fake toolkits and cuDNNs, a fresh
store, running the built binary. Stdlib only."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cudaenv_fixture import make_cudnn, write  # noqa: E402,F401 (tests/lib)

EXE = os.environ.get("CUDAENV_EXE", "cudaenv")


def make_toolkit(root, version, tools=("nvcc",)):
    """A toolkit folder `cudaenv add` recognises: bin/<tools>, lib64/libcudart.so.*, version.json."""
    major, minor = version.split(".")[:2]
    for tool in tools:
        write(os.path.join(root, "bin", tool), "#!/bin/sh\necho %s %s\n" % (tool, version), 0o755)
    lib = os.path.join(root, "lib64")
    write(os.path.join(lib, "libcudart.so.%s.%s.0" % (major, minor)), "fake\n")
    os.symlink("libcudart.so.%s.%s.0" % (major, minor), os.path.join(lib, "libcudart.so.%s" % major))
    write(os.path.join(root, "version.json"), json.dumps({"cuda": {"name": "CUDA SDK", "version": version + ".0"}}))
    write(os.path.join(root, "include", "cuda_runtime_api.h"), "#define CUDART_VERSION %s%s0\n" % (major, minor))
    return root


class Store:
    """A temporary CUDAENV_ROOT and HOME; run() starts the real binary."""

    def __init__(self, tag):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-store-%s-" % tag)
        self.root = os.path.join(self.tmp, "store")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)

    def env(self, **extra):
        env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV_") or k == "CUDAENV_EXE"}
        env.update({"CUDAENV_ROOT": self.root, "HOME": self.home, "CUDAENV_VERSION": ""})
        env.pop("CUDAENV_VERSION")
        env.update(extra)
        return env

    def start(self, *args, **kw):
        return subprocess.Popen([EXE, *args], cwd=kw.pop("cwd", self.tmp), env=self.env(**kw),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run(self, *args, **kw):
        p = self.start(*args, **kw)
        out, err = p.communicate(timeout=300)
        return p.returncode, out, err

    def config(self):
        path = os.path.join(self.root, "config.toml")
        if not os.path.exists(path):
            return {}
        with open(path, "rb") as f:
            return tomllib.load(f)

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)
