#!/usr/bin/env python3
"""The GitHub Action's steps (action.yml) as a Windows runner runs them, with
cudaenv.exe of this build, cold then warm, against a mirror in the exact shape
of NVIDIA's (tests/install/redist.py, the windows-x86_64 .zip archives) served
on 127.0.0.1 by tests/install/server.py.

There is no Git Bash under Wine: action/cudaenv-action.sh runs in Linux bash,
and `cudaenv` on its PATH is a wrapper that starts cudaenv.exe under Wine; a
stand-in cygpath (tests/windows/fake/cygpath) converts paths between Wine's
drive Z: and the Linux root, as Git Bash's cygpath does between D:\\ and /d/.
The inputs come in the forms a runner gives them (RUNNER_TEMP and the lock as
Windows paths, the store as `${{ runner.temp }}/cudaenv-store`). The Windows
step action/cudaenv-env.cmd runs in Wine's cmd as the runner runs a `shell:
cmd` step. The checkout holds only cudaenv.lock and nothing is written into it;
the variables written to GITHUB_ENV are read back by GitHub's rules (the
parser of tests/clients); a later step's `cudaenv current` and `list` find the
pair through them. Then the store goes through a stand-in cache (a copy), and
the warm run downloads nothing. Last, a `spec` input, locked for
windows-x86_64 under RUNNER_TEMP. Each step's wall time is printed (a report,
not a check: bench/action_bench.sh measures them).

What this cannot show: Git Bash itself (MSYS's own argument and PATH
conversion, its /d/a paths), the runner's cmd.exe, actions/cache, or a real
Windows file system (docs/lock.md, "GitHub Actions").

usage: action_win.py <cudaenv.exe> <work dir> <runner...>"""
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "install"))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))
import redist  # noqa: E402
from server import HttpServer  # noqa: E402
from support import parse_github_env  # noqa: E402
import wine_retry  # noqa: E402
import wintest  # noqa: E402
from wintest import expect, fail  # noqa: E402

EXE, WORK = sys.argv[1:3]
RUNNER = sys.argv[3:]
SCRIPT = os.path.join(ROOT, "action", "cudaenv-action.sh")
ENV_CMD = os.path.join(ROOT, "action", "cudaenv-env.cmd")
times = []


def win(path):
    return wintest.win_path(path, True)


def decode(b):
    return b.decode("utf-8", "replace").replace("\r\n", "\n")


BASE = {k: v for k, v in os.environ.items() if not k.startswith(("CUDAENV", "GITHUB_", "RUNNER_", "INPUT_"))}


def timed(what, argv, env, want=0, cwd=None):
    t = time.monotonic()
    p = wine_retry.run(argv, env=env, cwd=cwd, timeout=600)
    times.append((what, time.monotonic() - t))
    out, err = decode(p.stdout), decode(p.stderr)
    if p.returncode != want:
        fail(f"exit {p.returncode}, wanted {want}: {what}", f"--- stdout\n{out}\n--- stderr\n{err}")
    return out, err


def cudaenv(*args, env=None, cwd=None):
    p = wine_retry.run(RUNNER + [EXE, *args], env=dict(BASE, **(env or {})), cwd=cwd or WORK, timeout=600)
    if p.returncode != 0:
        fail(f"exit {p.returncode}: cudaenv {' '.join(args)}", decode(p.stdout) + decode(p.stderr))
    return decode(p.stdout)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
# `cudaenv` for the script: cudaenv.exe under Wine; cygpath: the stand-in.
bindir = os.path.join(WORK, "bin")
os.makedirs(bindir)
with open(os.path.join(bindir, "cudaenv"), "w") as f:
    f.write("#!/bin/sh\nexec " + " ".join("'%s'" % a for a in RUNNER + [EXE]) + ' "$@"\n')
os.chmod(os.path.join(bindir, "cudaenv"), 0o755)
shutil.copy(os.path.join(HERE, "fake", "cygpath"), bindir)
os.chmod(os.path.join(bindir, "cygpath"), 0o755)

mirror = redist.build(os.path.join(WORK, "mirror"), cuda=("12.6.3",), cudnn=("9.8.0",))
server = HttpServer(mirror, WORK)
url, log = server.url, server.log
try:
    checkout = os.path.join(WORK, "checkout")
    os.makedirs(checkout)
    open(os.path.join(checkout, ".cudaenv"), "w").write("12.6+9.8\n")

    wintest.step = "lock"
    out = cudaenv("lock", "--mirror", url, cwd=checkout, env={"CUDAENV_ROOT": win(os.path.join(WORK, "dev-store"))})
    expect("locked 12.6.3+9.8.0 for windows-x86_64" in out, "lock", out)
    os.remove(os.path.join(checkout, ".cudaenv"))  # the checkout holds only the lock

    runner_temp = os.path.join(WORK, "runner-temp")
    os.makedirs(runner_temp)
    store = os.path.join(runner_temp, "cudaenv-store")
    github_env = os.path.join(WORK, "github_env")

    def action(label, store_at="cudaenv-store", **inputs):
        """key, (cache restore), install and the cmd step, as action.yml runs them."""
        outputs = {}
        inputs = inputs or {"INPUT_LOCK": win(checkout) + "\\cudaenv.lock"}
        env = dict(BASE, PATH=bindir + os.pathsep + os.environ["PATH"], RUNNER_OS="Windows", RUNNER_ARCH="X64",
                   RUNNER_TEMP=win(runner_temp), GITHUB_ENV=github_env, **inputs)
        open(github_env, "w").close()
        for name, extra in (("key", {"CUDAENV_ROOT": win(runner_temp) + "/" + store_at}),  # ${{ runner.temp }}/...
                            ("install", {"CUDAENV_ROOT": lambda: outputs["key"]["store"],
                                         "CUDAENV_ACTION_PROJECT": lambda: outputs["key"]["project"]})):
            wintest.step = f"{label} {name}"
            out_file = os.path.join(WORK, f"output-{label}-{name}")
            e = dict(env, GITHUB_OUTPUT=out_file, **{k: v() if callable(v) else v for k, v in extra.items()})
            out, err = timed(f"{label} {name}", ["bash", SCRIPT, name], e, cwd=checkout)
            outputs[name] = parse_github_env(open(out_file).read())
            outputs[name + "_log"] = out + err
        # Git Bash's PATH must not reach later steps: the bash steps wrote CUDAENV_ROOT alone.
        expect(list(parse_github_env(open(github_env).read())) == ["CUDAENV_ROOT"], "bash wrote CUDAENV_ROOT only",
               open(github_env).read())
        wintest.step = f"{label} cudaenv-env.cmd"
        e = dict(BASE, INPUT_CUDAENV=EXE, CUDAENV_ROOT=outputs["key"]["store"],
                 CUDAENV_ACTION_PAIR=outputs["install"]["pair"], GITHUB_ENV=win(github_env))
        # The runner's template for `shell: cmd`: %ComSpec% /D /E:ON /V:OFF /S /C "CALL "{0}"".
        out, err = timed(f"{label} cudaenv-env.cmd", RUNNER + ["cmd", "/D", "/E:ON", "/V:OFF", "/S", "/C", "CALL",
                                                                  win(ENV_CMD)], e, cwd=checkout)
        outputs["env_log"] = out + err
        return outputs

    wintest.step = "cold"
    cold = action("cold")
    wintest.step = "cold: what it wrote"
    key = cold["key"]
    expect(re.fullmatch(r"cudaenv-Windows-X64-[0-9a-f]{32}", key.get("key", "")), "key: OS, architecture, hash",
           str(key))
    expect(key["store"] == win(store), "the store output in Windows form", str(key))
    expect(key["project"] == checkout, "the project as bash takes it", str(key))
    expect(cold["install"] == {"pair": "12.6.3+9.8.0"}, "the pair from cudaenv", str(cold["install"]))
    gets = [line for line in open(log) if line.startswith("GET ") and "-archive.zip" in line]
    # The toolkit's Windows components (visual_studio_integration among them) and cuDNN.
    expect(len(gets) == 19, "19 .zip archives fetched", open(log).read())
    expect(sorted(os.listdir(checkout)) == ["cudaenv.lock"], "nothing written into the checkout",
           str(os.listdir(checkout)))
    got = parse_github_env(open(github_env).read())
    tk = win(store) + "\\toolkits\\12.6.3"
    cd = win(store) + "\\cudnn\\9.8.0_cuda12"
    expect(got.get("CUDAENV_ROOT") == win(store), "CUDAENV_ROOT for later steps", str(got))
    expect(got.get("CUDA_PATH") == tk and got.get("CUDA_PATH_V12_6") == tk, "CUDA_PATH", str(got))
    expect(got.get("CUDNN_PATH") == cd, "CUDNN_PATH", str(got))
    expect(got.get("CUDAENV_VERSION") == "12.6.3+9.8.0", "CUDAENV_VERSION", str(got))
    path = got.get("PATH", "").split(";")
    expect(path[:2] == [tk + "\\bin", cd + "\\bin"], "the pair first on the job's PATH", str(path))
    expect(any(p.lower() == "c:\\windows\\system32" for p in path), "the job's PATH after it (cmd's)", str(path))
    expect(os.path.isfile(os.path.join(store, "toolkits", "12.6.3", "bin", "nvcc.exe")), "nvcc.exe in the store")
    expect(os.path.isfile(os.path.join(store, "cudnn", "9.8.0_cuda12", "bin", "cudnn64_9.dll")), "cuDNN in the store")

    wintest.step = "a later step"
    later = {k: got[k] for k in ("CUDAENV_ROOT", "CUDAENV_VERSION")}
    out = cudaenv("current", env=later)
    expect(out.startswith("12.6.3+9.8.0 (set by"), "`cudaenv current` in a later step", out)
    expect("12.6.3+9.8.0" in cudaenv("list", env=later), "`cudaenv list` in a later step")

    wintest.step = "warm"
    cache = os.path.join(WORK, "actions-cache")
    shutil.copytree(store, cache)  # actions/cache/save
    shutil.rmtree(store)
    shutil.copytree(cache, store)  # a later job: actions/cache/restore, the same key
    before = open(log).read()
    warm = action("warm")
    wintest.step = "warm: what it wrote"
    expect(warm["key"] == key, "the same key and outputs", f"{warm['key']} {key}")
    expect(warm["install"] == {"pair": "12.6.3+9.8.0"}, "the pair", str(warm["install"]))
    expect("in sync: 12.6.3+9.8.0" in warm["install_log"], "nothing to do", warm["install_log"])
    expect(open(log).read() == before, "the warm run sent no request, not even for a manifest")
    expect(parse_github_env(open(github_env).read()) == got, "the same variables", open(github_env).read())
    expect(sorted(os.listdir(checkout)) == ["cudaenv.lock"], "nothing written into the checkout")

    wintest.step = "spec"
    spec = action("spec", store_at="spec-store", INPUT_SPEC="12.6+9.8", INPUT_MIRROR=url)
    expect(spec["install"] == {"pair": "12.6.3+9.8.0"}, "the pair of the spec", str(spec["install"]))
    project = spec["key"]["project"]
    expect(project == os.path.join(runner_temp, "cudaenv-action", "project"), "locked under RUNNER_TEMP", project)
    expect('platforms = [ "windows-x86_64" ]' in open(os.path.join(project, "cudaenv.lock")).read(), "a Windows lock")
    spec_tk = win(runner_temp) + "\\spec-store\\toolkits\\12.6.3"
    expect(parse_github_env(open(github_env).read())["CUDA_PATH"] == spec_tk, "the spec's pair for later steps",
           open(github_env).read())
    expect(sorted(os.listdir(checkout)) == ["cudaenv.lock"], "nothing written into the checkout")
finally:
    server.stop()
for what, seconds in times:
    print(f"{what}: {seconds * 1000:.0f} ms")
print("PASS")
