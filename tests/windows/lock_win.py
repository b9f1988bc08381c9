#!/usr/bin/env python3
"""`cudaenv lock` and `cudaenv sync` of the windows-x86_64 platform, run by
cudaenv.exe (under Wine in the cross build): a mirror in the exact shape of
NVIDIA's (tests/install/redist.py) served on 127.0.0.1 by
tests/install/server.py, a project with a .cudaenv. The lock holds the
windows-x86_64 archives (.zip), byte for byte the same as one written with
--platform windows-x86_64; sync installs them in parallel downloads
(toolkits\\12.6.3 with bin\\cudart64_12.dll and bin\\nvcc.exe,
cudnn\\9.8.0_cuda12 with bin\\cudnn64_9.dll), pins the pair, `list` shows it,
and a second sync does nothing (no request reaches the server). Then the same
lock synced into a second store from an offline mirror folder made by
`mirror create --lock`, with the server gone.

usage: lock_win.py <cudaenv.exe> <work dir> [runner...]"""
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "install"))
import redist  # noqa: E402
from server import HttpServer  # noqa: E402
import wine_retry  # noqa: E402
import wintest  # noqa: E402
from wintest import expect, fail  # noqa: E402

EXE, WORK = sys.argv[1:3]
RUNNER = sys.argv[3:]


def win(path):
    return wintest.win_path(path, RUNNER)


def run(*args, cwd, store, want=0):
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV")}
    env["CUDAENV_ROOT"] = win(store)
    rc, out, err = wine_retry.run_text(RUNNER + [EXE, *args], env, 600, cwd=cwd)
    if rc != want:
        fail(f"exit {rc}, wanted {want}: cudaenv {' '.join(args)}", f"--- stdout\n{out}\n--- stderr\n{err}")
    return out


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
mirror = redist.build(os.path.join(WORK, "mirror"), cuda=("12.6.3",), cudnn=("9.8.0",))
server = HttpServer(mirror, WORK)
url, log = server.url, server.log
try:
    project, store = os.path.join(WORK, "proj"), os.path.join(WORK, "store")
    os.makedirs(project)
    open(os.path.join(project, ".cudaenv"), "w").write("12.6+9.8\n")

    wintest.step = "lock"
    out = run("lock", "--mirror", url, cwd=project, store=store)
    expect("locked 12.6.3+9.8.0 for windows-x86_64 (19 archives" in out, "lock summary", out)
    lock_file = os.path.join(project, "cudaenv.lock")
    text = open(lock_file, "rb").read()
    expect(b'platforms = [ "windows-x86_64" ]' in text, "locked for windows-x86_64", text.decode())
    expect(text.count(b"-archive.zip") == 19 and b".tar.xz" not in text, "19 .zip archives", text.decode())
    expect(b"\r\n" not in text, "LF line ends on every OS (the same bytes everywhere)", text.decode())
    run("lock", "--mirror", url, "--platform", "windows-x86_64", cwd=project, store=store)
    expect(open(lock_file, "rb").read() == text, "the same bytes with --platform windows-x86_64")
    expect(not os.path.exists(os.path.join(store, "toolkits")), "lock installs nothing")

    wintest.step = "sync"
    out = run("sync", cwd=project, store=store)
    expect("synced 12.6.3+9.8.0" in out and "paired CUDA 12.6.3 with cuDNN 9.8.0" in out, "sync summary", out)
    tk, cd = os.path.join(store, "toolkits", "12.6.3"), os.path.join(store, "cudnn", "9.8.0_cuda12")
    for f in (os.path.join(tk, "bin", "cudart64_12.dll"), os.path.join(tk, "bin", "nvcc.exe"),
              os.path.join(tk, "version.json"), os.path.join(cd, "bin", "cudnn64_9.dll"),
              # visual_studio_integration, where NVIDIA's installer and CMake's -T cuda=<folder> have it
              os.path.join(tk, "extras", "visual_studio_integration", "MSBuildExtensions", "CUDA 12.6.props"),
              os.path.join(cd, "include", "cudnn_version.h")):
        expect(os.path.isfile(f), f"{f} installed", out)
    expect(not os.listdir(os.path.join(store, "tmp")) or os.listdir(os.path.join(store, "tmp")) == ["install.lock"],
           "nothing left in tmp", str(os.listdir(os.path.join(store, "tmp"))))
    out = run("list", cwd=project, store=store)
    expect("12.6.3+9.8.0" in out, "list shows the pair", out)

    wintest.step = "no-op sync"
    before = open(log).read()
    out = run("sync", cwd=project, store=store)
    expect(out.startswith("in sync: 12.6.3+9.8.0"), "nothing to do", out)
    expect(open(log).read() == before, "no request reached the server")

    wintest.step = "offline mirror"
    offline = os.path.join(WORK, "offline")
    run("mirror", "create", win(offline), "--lock", win(lock_file), "--quiet", cwd=project, store=store)
    server.stop()
    store2 = os.path.join(WORK, "store2")
    out = run("sync", "--frozen", "--mirror", win(offline), cwd=project, store=store2)
    expect("synced 12.6.3+9.8.0" in out, "sync from the mirror folder", out)
    expect(os.path.isfile(os.path.join(store2, "cudnn", "9.8.0_cuda12", "bin", "cudnn64_9.dll")), "cuDNN from the folder")
    out = run("mirror", "verify", win(offline), cwd=project, store=store2)
    expect("19 match, 0 do not" in out, "verify", out)
finally:
    server.stop()
print("PASS")
