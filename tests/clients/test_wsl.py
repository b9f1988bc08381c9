"""WSL2: with the WSL marker injected (WSL_DISTRO_NAME, or a kernel release
file naming Microsoft), `discover` lists a Windows toolkit under
/mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8 as skipped with
the reason and never adopts it; without the marker it is found as usual;
`doctor` says where WSL's driver lives and that a Linux cuDNN is needed.
The drive mounts' folder is injected too (CUDAENV_WSL_MOUNT_ROOT)."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs, write  # noqa: E402
import support  # noqa: E402


def windows_toolkit(root):
    write(os.path.join(root, "bin", "nvcc.exe"), "MZ fake\n")
    write(os.path.join(root, "bin", "cudart64_110.dll"), "MZ fake\n")
    write(os.path.join(root, "version.json"), json.dumps({"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}))
    write(os.path.join(root, "include", "cuda_runtime_api.h"), "#define CUDART_VERSION 11080\n")
    write(os.path.join(root, "lib", "x64", "cudart.lib"), "fake\n")


def main():
    args = support.paths("cudaenv")
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-wsl-")
    try:
        mnt = os.path.join(p.tmp, "mnt")
        cuda_dir = os.path.join(mnt, "c", "Program Files", "NVIDIA GPU Computing Toolkit", "CUDA")
        tk = os.path.join(cuda_dir, "v11.8")
        windows_toolkit(tk)
        release = os.path.join(p.tmp, "osrelease")
        open(release, "w").write("5.15.153.1-microsoft-standard-WSL2\n")
        plain = p.env(CUDAENV_WSL_MOUNT_ROOT=mnt, CUDAENV_OSRELEASE_FILE=os.path.join(p.tmp, "no-such-file"))
        r = p.run("discover", "--json", "--root", cuda_dir, env=plain)
        listed = json.loads(r.stdout or "[]")
        c.true(any(f["path"] == tk and f["status"] == "new" for f in listed),
               "without WSL the Windows toolkit is found: %r %s" % (listed, r.stderr))
        for marker in ({"WSL_DISTRO_NAME": "Ubuntu"}, {"CUDAENV_OSRELEASE_FILE": release}):
            env = dict(plain, **marker)
            r = p.run("discover", "--json", "--root", cuda_dir, env=env)
            listed = json.loads(r.stdout or "[]")
            skipped = [f for f in listed if f["path"] == tk]
            c.true(len(skipped) == 1 and skipped[0]["status"] == "skipped" and "WSL" in skipped[0]["reason"],
                   "%s: skipped with a reason: %r" % (marker, listed))
            r = p.run("discover", "--add", "--root", cuda_dir, env=env)
            c.true("skipped" in r.stderr and "Windows drive" in r.stderr, "discover --add says why: %r" % r.stderr)
            r = p.run("list", env=env)
            c.true(tk not in r.stdout and "v11.8" not in r.stdout, "never adopted: %s" % r.stdout)
        env = dict(plain, WSL_DISTRO_NAME="Ubuntu", PATH="/usr/bin:/bin:" + os.path.join(tk, "bin"))
        r = p.run("doctor", env=env)
        c.true("/usr/lib/wsl/lib" in r.stdout and "Linux cuDNN" in r.stdout, "doctor on WSL:\n" + r.stdout)
        c.true("holds the Windows folder" in r.stdout, "doctor names the Windows folder on PATH")
        r = p.run("doctor", env=plain)
        c.true("/usr/lib/wsl/lib" not in r.stdout, "no WSL finding off WSL")
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            p.cleanup()
    return c.done("clients_wsl")


if __name__ == "__main__":
    sys.exit(main())
