"""Shared fixture for the integration suites: fake toolkits and cuDNNs in
folders whose names need quoting in every shell, adopted into a temporary
store. Stdlib only."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cudaenv_fixture import make_cudnn, write  # noqa: E402,F401 (tests/lib)

# Names that break naive quoting in every shell: space, ', $, `, %, CJK,
# brackets, ", !, ^, &, a backslash.
WEIRD_A = "工具 a'b$c`d%e"
WEIRD_B = '张三 [x] "q" !^&\\ $HOME'

PWSH = os.environ.get("CUDAENV_TEST_PWSH") or os.path.expanduser("~/.dotnet/tools/pwsh")


def shell_exe(name):
    if name == "pwsh":
        return PWSH
    return shutil.which(name) or name


def make_toolkit(root, version, patch):
    """A toolkit folder: bin/nvcc (prints its version), lib64/libcudart.so.X.Y.Z, version.json."""
    write(os.path.join(root, "bin", "nvcc"),
          "#!/bin/sh\necho \"nvcc fake: Cuda compilation tools, release %s, V%s.%s\"\n" % (version, version, patch),
          0o755)
    major = version.split(".")[0]
    lib = os.path.join(root, "lib64")
    write(os.path.join(lib, "libcudart.so.%s.%s" % (version, patch)), "fake\n")
    os.symlink("libcudart.so.%s.%s" % (version, patch), os.path.join(lib, "libcudart.so.%s" % major))
    write(os.path.join(root, "version.json"),
          json.dumps({"cuda": {"name": "CUDA SDK", "version": "%s.%s" % (version, patch)}}))
    write(os.path.join(root, "include", "cuda_runtime_api.h"), "#define CUDART_VERSION %s%s0\n" %
          (major, version.split(".")[1]))


class Fixture:
    """Two toolkits (11.8, 12.4) and two cuDNNs (8.9.7 for CUDA 11, 9.1.0 for
    CUDA 12) adopted into a temporary CUDAENV_ROOT; HOME is a temp folder."""

    def __init__(self, cudaenv):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-it-")
        self.base_a = os.path.join(self.tmp, WEIRD_A)
        self.base_b = os.path.join(self.tmp, WEIRD_B)
        self.cuda118 = os.path.join(self.base_a, "cuda-11.8")
        self.cuda124 = os.path.join(self.base_b, "cuda 12.4")
        self.cudnn8 = os.path.join(self.base_a, "cudnn-linux-x86_64-8.9.7.29_cuda11-archive")
        self.cudnn9 = os.path.join(self.base_b, "cudnn-linux-x86_64-9.1.0.70_cuda12-archive")
        make_toolkit(self.cuda118, "11.8", 89)
        make_toolkit(self.cuda124, "12.4", 131)
        make_cudnn(self.cudnn8, "8.9.7")
        make_cudnn(self.cudnn9, "9.1.0")
        self.home = os.path.join(self.tmp, "home 家")
        os.makedirs(self.home)
        self.root = os.path.join(self.tmp, "store $x 'y'")
        # The binary lives in a folder that needs quoting too, so every init
        # script has to quote its own path.
        bindir = os.path.join(self.base_a, "bin dir")
        os.makedirs(bindir)
        self.cudaenv = os.path.join(bindir, "cudaenv")
        shutil.copy2(cudaenv, self.cudaenv)
        # Its installer beside it (install, lock, sync, mirror; their completion).
        installer = os.path.join(os.path.dirname(os.path.abspath(cudaenv)), "cudaenv-install")
        if os.path.exists(installer):
            shutil.copy2(installer, os.path.join(bindir, "cudaenv-install"))
        for d in (self.cuda118, self.cuda124, self.cudnn8, self.cudnn9):
            r = self.run_cudaenv("add", d)
            if r.returncode != 0:
                raise RuntimeError("cudaenv add %s failed: %s" % (d, r.stderr))

    def base_env(self):
        env = {
            "HOME": self.home,
            "CUDAENV_ROOT": self.root,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TERM": "dumb",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
            "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
            "DOTNET_CLI_TELEMETRY_OPTOUT": "1",
            "POWERSHELL_TELEMETRY_OPTOUT": "1",
            "POWERSHELL_UPDATECHECK": "Off",
        }
        # pwsh is a .NET global tool: it needs to find the runtime.
        dotnet_root = os.environ.get("DOTNET_ROOT")
        if not dotnet_root and shutil.which("dotnet"):
            dotnet_root = os.path.dirname(os.path.realpath(shutil.which("dotnet")))
        if dotnet_root:
            env["DOTNET_ROOT"] = dotnet_root
        return env

    def run_cudaenv(self, *args, env=None, cwd=None):
        e = self.base_env()
        if env:
            e.update(env)
        return subprocess.run([self.cudaenv, *args], env=e, cwd=cwd or self.tmp, capture_output=True, text=True)

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def run_tests(fix, rest):
    """Runs the unittest cases of the script run (__main__) (`rest`: unittest's own
    arguments) with `fix` set up, then removes it (unless
    CUDAENV_KEEP_FIXTURE is set); the exit status for CTest."""
    try:
        prog = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
        return 0 if prog.result.wasSuccessful() else 1
    finally:
        if not os.environ.get("CUDAENV_KEEP_FIXTURE"):
            fix.cleanup()


def dump_main(argv):
    """`--dump OUTDIR LABEL RC NVCC_PATH NVCC_OUTPUT`: called from inside the
    shells; writes what a child process of that shell sees."""
    outdir, label, rc, nvcc_path, nvcc_out = argv
    data = {"rc": rc, "nvcc_path": nvcc_path, "nvcc_out": nvcc_out, "env": dict(os.environ),
            "cwd": os.getcwd()}
    with open(os.path.join(outdir, label + ".json"), "w", encoding="utf-8") as f:
        json.dump(data, f)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--dump":
    dump_main(sys.argv[2:])
