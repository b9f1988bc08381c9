"""`cudaenv install --for <framework>==<version>` against a real offline
mirror in NVIDIA's redist layout (.ci/sample_mirror.py, given the releases the
framework rows need): the pair the framework was built with lands in the
store, the output says why, `local --for` then pins it in `.cudaenv`, and a
version with no GPU build on the OS is a clear error that installs nothing."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", ".ci"))
from support import Checks  # noqa: E402
import support  # noqa: E402
import sample_mirror  # noqa: E402

# TensorFlow 2.5-2.10 were built with CUDA 11.2 + cuDNN 8.1 (framework_builds.toml): add
# those releases to the sample generator's two (11.8.0 and 12.6.3; 8.9.7 and 9.8.0).
sample_mirror.CUDA["11.2.2"] = ("11.2.152", "11.2.152", "cuda_11.2.r11.2/compiler.29618528_0", 11020)
sample_mirror.CUDNN["8.1.1"] = ("8.1.1.33", (11,))


def make_mirror(dest):
    for r in sample_mirror.CUDA:
        sample_mirror.cuda_release(dest, r)
    for r in sample_mirror.CUDNN:
        sample_mirror.cudnn_release(dest, r)


def main():
    args = support.paths("cudaenv")
    cudaenv = os.path.abspath(args.cudaenv)
    c = Checks()
    tmp = tempfile.mkdtemp(prefix="cudaenv-install-for-")
    try:
        mirror = os.path.join(tmp, "mirror")
        make_mirror(mirror)
        root = os.path.join(tmp, "store")
        home = os.path.join(tmp, "home")
        proj = os.path.join(tmp, "project")
        os.makedirs(home)
        os.makedirs(proj)
        env = {"HOME": home, "CUDAENV_ROOT": root, "LANG": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin",
               "CUDAENV_MIRROR": mirror}

        def run(*a, cwd=proj):
            return subprocess.run([cudaenv, *a], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)

        def store_entries():
            return sorted(os.listdir(os.path.join(root, "toolkits"))) + sorted(os.listdir(os.path.join(root, "cudnn")))

        r = run("install", "--list")
        c.true("11.2.2" in r.stdout and "8.1.1 (CUDA 11)" in r.stdout, "the mirror offers 11.2.2 and 8.1.1: " + r.stdout)

        # TensorFlow 2.10 on Linux: CUDA 11.2 + cuDNN 8.1 from the mirror.
        r = run("install", "--for", "tensorflow==2.10", "--quiet")
        c.eq(r.returncode, 0, "install --for tensorflow==2.10: " + r.stderr)
        c.true("tensorflow 2.10 (linux) was built with CUDA 11.2 + cuDNN 8.1; installing 11.2+8.1" in r.stderr,
               "install --for says why: %r" % r.stderr)
        c.true("hint: pin it for the project: cudaenv local --for tensorflow==2.10" in r.stderr,
               "install --for says how to pin it: %r" % r.stderr)
        c.true(os.path.isfile(os.path.join(root, "toolkits", "11.2.2", "bin", "nvcc")), "CUDA 11.2.2 in the store")
        c.true(os.path.isfile(os.path.join(root, "cudnn", "8.1.1_cuda11", "include", "cudnn_version.h")),
               "cuDNN 8.1.1 for CUDA 11 in the store: %r" % store_entries())
        out = subprocess.run([os.path.join(root, "toolkits", "11.2.2", "bin", "nvcc"), "--version"],
                             capture_output=True, text=True).stdout
        c.true("release 11.2, V11.2.152" in out, "the installed nvcc is 11.2's: %r" % out)
        r = run("list")
        c.true("11.2.2+8.1.1" in r.stdout, "list shows the pair: " + r.stdout)
        # Nothing more to install; the output says which pair fits and how to pin it.
        before = store_entries()
        r = run("install", "--for", "tensorflow==2.10")
        c.true(r.returncode == 0 and "nothing to install" in r.stderr and "cudaenv local 11.2.2+8.1.1" in r.stderr,
               "install --for again: %r" % r.stderr)
        c.eq(store_entries(), before, "nothing installed the second time")
        # local --for pins it and says why.
        r = run("local", "--for", "tensorflow==2.10")
        pin = os.path.join(proj, ".cudaenv")
        c.eq(open(pin).read() if os.path.exists(pin) else None, "11.2.2+8.1.1\n", ".cudaenv for tensorflow 2.10")
        c.true("CUDA 11.2 + cuDNN 8.1" in r.stderr and "11.2.2+8.1.1" in r.stderr, "local --for says why: %r" % r.stderr)

        # ONNX Runtime 1.16: CUDA 11.8 + any cuDNN 8. No installed pair fits (11.2 is older than
        # 11.8), so CUDA 11.8.0 comes from the mirror and pairs with the cuDNN 8 for CUDA 11 already there.
        r = run("install", "--for", "onnxruntime-gpu==1.16.3", "--quiet")
        c.true(r.returncode == 0 and "onnxruntime-gpu 1.16.3 (linux) was built with CUDA 11.8 + cuDNN 8; installing 11.8+8"
               in r.stderr, "install --for onnxruntime-gpu: %r" % r.stderr)
        c.true(os.path.isdir(os.path.join(root, "toolkits", "11.8.0")), "11.8.0 in the store: %r" % store_entries())
        r = run("local", "--for", "onnxruntime-gpu==1.16.3")
        c.eq(open(pin).read(), "11.8.0+8.1.1\n", ".cudaenv for onnxruntime-gpu 1.16.3: %r" % r.stderr)
        run("local", "--for", "tensorflow==2.10")

        # No GPU build on the OS: a clear error, the way out, nothing installed.
        before = store_entries()
        r = run("install", "--for", "tensorflow==2.15", "--os", "windows")
        c.true(r.returncode == 1 and r.stderr.startswith("cudaenv: error: tensorflow 2.15 has no GPU build for native Windows")
               and "WSL2" in r.stderr, "tensorflow 2.15 on native Windows: %r" % r.stderr)
        c.eq(len(r.stderr.strip().splitlines()), 2, "one error line and one hint: %r" % r.stderr)
        r = run("install", "--for", "jax-cuda12-plugin==0.4.30", "--os", "windows")
        c.true(r.returncode == 1 and r.stderr.startswith("cudaenv: error: ") and "windows" in r.stderr,
               "jax on native Windows: %r" % r.stderr)
        c.eq(store_entries(), before, "the refusals installed nothing")
        c.eq(open(pin).read(), "11.2.2+8.1.1\n", ".cudaenv untouched by the refusals")
        # An unknown version is refused the same way.
        r = run("install", "--for", "tensorflow==1.15")
        c.true(r.returncode != 0 and r.stderr.startswith("cudaenv: error: "), "tensorflow 1.15: %r" % r.stderr)
        print(json.dumps(store_entries()))
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            shutil.rmtree(tmp, ignore_errors=True)
    return c.done("clients_install_for")


if __name__ == "__main__":
    sys.exit(main())
