"""Frameworks against the compatibility data: `doctor` with fake tensorflow
and torch packages on PYTHONPATH (tiny modules and dist-info metadata that
report versions and build info the way the real ones do) reports the
mismatch in the words of the seed's failure 5.4; `local --for` and
`use --for` pick the pair and say why; bad names, versions and a framework
version without a GPU build on the OS are clear errors."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs, make_cudnn, make_toolkit, write  # noqa: E402
import support  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gpu"))
import craft  # noqa: E402


def fake_packages(site):
    write(os.path.join(site, "tensorflow", "__init__.py"),
          "__version__ = '2.5.0'\nfrom . import sysconfig\n")
    write(os.path.join(site, "tensorflow", "sysconfig.py"),
          "def get_build_info():\n    return {'cuda_version': '11.2', 'cudnn_version': '8', 'is_cuda_build': True}\n")
    write(os.path.join(site, "tensorflow-2.5.0.dist-info", "METADATA"),
          "Metadata-Version: 2.1\nName: tensorflow\nVersion: 2.5.0\n")
    write(os.path.join(site, "torch", "__init__.py"),
          "__version__ = '2.5.1+cu121'\nfrom . import version, backends\n")
    write(os.path.join(site, "torch", "version.py"), "cuda = '12.1'\n")
    write(os.path.join(site, "torch", "backends", "__init__.py"), "from . import cudnn\n")
    write(os.path.join(site, "torch", "backends", "cudnn.py"), "def version():\n    return 90100\n")
    write(os.path.join(site, "torch-2.5.1+cu121.dist-info", "METADATA"),
          "Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu121\n")


def installed_build(c, p, pybin, proj, pin):
    """torch 2.11.0 from PyPI: its metadata says 2.11.0, torch/version.py
    2.11.0+cu130. `--for torch==2.11.0` and doctor use that build; without it
    the hint names only builds that exist for 2.11 (from the data)."""
    site = os.path.join(p.tmp, "site pypi")
    write(os.path.join(site, "torch", "__init__.py"), "raise ImportError('never imported')\n")
    write(os.path.join(site, "torch", "version.py"),
          "from typing import Optional\n__version__ = '2.11.0+cu130'\ncuda: Optional[str] = '13.0'\n")
    write(os.path.join(site, "torch-2.11.0.dist-info", "METADATA"), "Metadata-Version: 2.1\nName: torch\nVersion: 2.11.0\n")
    write(os.path.join(site, "torch-2.11.0.dist-info", "RECORD"), "torch/version.py,,\n")
    tk = os.path.join(p.tmp, "cuda-13.0")
    dnn = os.path.join(p.tmp, "cudnn-linux-x86_64-9.19.0.56_cuda13-archive")
    make_toolkit(tk, "13.0.88")
    make_cudnn(dnn, "9.19.0")
    for d in (tk, dnn):
        p.run("add", d)
    env = p.env(PYTHONPATH=site, PATH=pybin + ":/usr/bin:/bin")
    r = p.run("local", "--for", "torch==2.11.0", env=env, cwd=proj)
    c.eq(open(pin).read(), "13.0.88+9.19.0\n", "local --for torch==2.11.0 takes the installed cu130: %s" % r.stderr)
    c.true("torch 2.11.0+cu130 (linux, installed)" in r.stderr, "it says the installed build: %r" % r.stderr)
    r = p.run("doctor", "--json", env=dict(env, CUDAENV_VERSION="13.0"))
    torch = [f for f in json.loads(r.stdout)["findings"] if f["topic"] == "framework" and f["details"]["name"] == "torch"]
    c.true(torch and torch[0]["details"]["version"] == "2.11.0+cu130" and torch[0]["status"] == "ok" and
           "bundles CUDA 13.0 + cuDNN 9.19" in torch[0]["summary"], "doctor's torch row uses the installed build: %r" % torch)
    # Its GPU code is judged with the version that build names (PyPI's metadata leaves +cu130 out).
    os.makedirs(os.path.join(site, "torch", "lib"))
    craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 90)]), os.path.join(site, "torch", "lib", "libtorch_cuda.so"))
    r = p.run("local", "--for", "torch==2.11.0+cu130", env=dict(env, CUDAENV_GPU="sm_61"), cwd=proj)
    c.true("torch 2.11.0+cu130 on sm_61: no (libtorch_cuda.so: no code for sm_61 (has sm_90))" in r.stderr,
           "--for torch==2.11.0+cu130 warns that the installed build leaves sm_61 out: %r" % r.stderr)
    # No torch installed: the hint names 2.11's builds only.
    r = p.run("local", "--for", "torch==2.11.0", env=p.env(PATH="/usr/bin:/bin"), cwd=proj)
    c.true(r.returncode == 2 and "hint: its builds: cu126, cu128, cu130 " in r.stderr and "cu124" not in r.stderr,
           "local --for torch==2.11.0 without torch: %r" % r.stderr)
    r = p.run("local", "--for", "torch==2.11.0+cu124", env=p.env(PATH="/usr/bin:/bin"), cwd=proj)
    c.true(r.returncode == 1 and "torch 2.11.0 has no build '+cu124' on linux" in r.stderr, "a build 2.11 lacks: %r" % r.stderr)


def main():
    args = support.paths("cudaenv")
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-frameworks-")
    try:
        site = os.path.join(p.tmp, "site packages")
        fake_packages(site)
        pybin = os.path.join(p.tmp, "pybin")
        os.makedirs(pybin)
        os.symlink(sys.executable, os.path.join(pybin, "python3"))
        env = p.env(PYTHONPATH=site, CUDAENV_VERSION="11.8", PATH=pybin + ":/usr/bin:/bin")
        r = p.run("doctor", env=env)
        print(r.stdout)
        c.true("tensorflow 2.5.0 expects CUDA 11.2 + cuDNN 8.1; the active pair is 11.8+8.9.7" in r.stdout,
               "doctor names tensorflow's pair and the active one:\n" + r.stdout + r.stderr)
        c.true("torch 2.5.1+cu121 bundles CUDA 12.1 + cuDNN 9.1.0.70" in r.stdout, "doctor on torch's wheels")
        r = p.run("doctor", "--json", env=env)
        found = [f for f in json.loads(r.stdout)["findings"] if f["topic"] == "framework"]
        tf = [f for f in found if f["details"]["name"] == "tensorflow"]
        c.true(tf and tf[0]["status"] == "warn" and "local --for tensorflow==2.5.0" in tf[0]["advice"],
               "doctor --json: tensorflow warns with the way out: %r" % tf)
        env12 = dict(env, CUDAENV_VERSION="12.4")
        r = p.run("doctor", "--json", env=env12)
        tf = [f for f in json.loads(r.stdout)["findings"] if f["topic"] == "framework" and f["details"]["name"] == "tensorflow"]
        c.true(tf and tf[0]["status"] == "fail", "tensorflow 2.5 under CUDA 12 fails: %r" % tf)

        proj = os.path.join(p.tmp, "project")
        os.makedirs(proj)
        pin = os.path.join(proj, ".cudaenv")
        r = p.run("local", "--for", "tensorflow==2.10", cwd=proj)
        c.eq(r.returncode, 0, "local --for tensorflow==2.10: %s" % r.stderr)
        c.eq(open(pin).read() if os.path.exists(pin) else None, "11.8.89+8.9.7\n", ".cudaenv for tensorflow 2.10")
        c.true("CUDA 11.2 + cuDNN 8.1" in r.stderr and "11.8.89+8.9.7" in r.stderr, "it says why: %r" % r.stderr)
        r = p.run("local", "--for", "torch==2.5.1+cu121", cwd=proj)
        c.eq(open(pin).read(), "12.4.131+9.1.0\n", "local --for torch cu121: %s" % r.stderr)
        r = p.run("local", "--for", "tensorflow==2.10", "--os", "windows", cwd=proj)
        c.eq(open(pin).read(), "11.8.89+8.9.7\n", "local --for tensorflow==2.10 --os windows: %s" % r.stderr)
        before = open(pin).read()
        for bad, words in ((["tensorflow==2.11", "--os", "windows"], "WSL2"),
                           (["tensorflw==2.10"], "no compatibility data for the framework"),
                           (["tensorflow==1.15"], "no compatibility data for tensorflow 1.15"),
                           (["tensorflow"], "<framework>==<version>"),
                           (["tensorflow==2.16"], "cudaenv install --for tensorflow==2.16")):
            r = p.run("local", "--for", *bad, cwd=proj)
            c.true(r.returncode != 0 and words in r.stderr and r.stderr.startswith("cudaenv: error:"),
                   "local --for %s refused with %r: %r" % (bad, words, r.stderr))
        c.eq(open(pin).read(), before, ".cudaenv untouched by the refusals")
        r = p.run("use", "--for", "tensorflow==2.10", env=p.env(CUDAENV_SHELL="bash"), cwd=proj)
        c.true(r.returncode == 0 and "cuda-11.8" in r.stdout, "use --for prints the pair's code: %r" % (r.stdout[:300] + r.stderr))
        installed_build(c, p, pybin, proj, pin)
        # install --for: nothing when an installed pair fits, else the pair's CUDA + cuDNN
        if os.path.exists(os.path.join(os.path.dirname(p.cudaenv), "cudaenv-install")):
            r = p.run("install", "--for", "tensorflow==2.10")
            c.true(r.returncode == 0 and "nothing to install" in r.stderr, "install --for, installed: %r" % r.stderr)
            r = p.run("install", "--for", "tensorflow==2.16", "--mirror", os.path.join(p.tmp, "no mirror"))
            c.true("installing 12.3+8.9" in r.stderr, "install --for asks the installer for 12.3+8.9: %r" % r.stderr)
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            p.cleanup()
    return c.done("clients_frameworks")


if __name__ == "__main__":
    sys.exit(main())
