#!/usr/bin/env python3
"""cmd sessions that switch at the same time each get their own pair. cmd seeds
%RANDOM% with the time when it starts, so sessions started in the same second
draw the same numbers; the session shim (shell/cmd/cudaenv.cmd) names the file
of commands it applies with them, in the shared TEMP folder. Four sessions start
at once here and switch three times each, in opposite orders: each must see
its own pair every time, and TEMP must be left empty.

usage: cmd_sessions_win.py <cudaenv.exe> <work dir> [runner...]"""
import os
import shutil
import subprocess
import sys

import wine_retry
import wintest
from wintest import check

EXE, WORK = sys.argv[1:3]
RUNNER = sys.argv[3:]
SESSIONS = 4


def win(path):
    return wintest.win_path(path, RUNNER)


shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(os.path.join(WORK, "tmp"))
ENV = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV_")}
ENV["CUDAENV_ROOT"] = win(os.path.join(WORK, "store"))

toolkits = {}
for version in ("11.8.0", "13.0.1"):
    tk = os.path.join(WORK, "CUDA", "v" + version.rsplit(".", 1)[0])
    # CUDA 13 keeps its DLLs in bin\x64.
    dlls = os.path.join(tk, "bin") if version.startswith("11") else os.path.join(tk, "bin", "x64")
    os.makedirs(dlls)
    open(os.path.join(dlls, "cudart64_110.dll" if version.startswith("11") else "cudart64_13.dll"), "w").close()
    with open(os.path.join(tk, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' % version)
    wintest.run(RUNNER, [EXE, "add", win(tk)], ENV, 600, 0)
    toolkits[version[:4]] = win(tk)
wintest.run(RUNNER, [EXE, "init", "cmd"], ENV, 600, 0)

orders = [("11.8", "13.0", "11.8"), ("13.0", "11.8", "13.0")]
scripts = []
for i in range(SESSIONS):
    script = os.path.join(WORK, "session%d.cmd" % i)
    with open(script, "w", newline="\r\n") as f:
        f.write("@echo off\n"
                'set "PATH=%s;%%SystemRoot%%\\system32;%%SystemRoot%%"\n' % win(os.path.join(WORK, "store", "shims")) +
                'set "TEMP=%s"\n' % win(os.path.join(WORK, "tmp")) +
                "".join("call cudaenv use %s\necho got: %%CUDA_PATH%%\n" % spec for spec in orders[i % 2]))
    scripts.append(script)

# All at once: the same second, so the same %RANDOM% numbers in every session.
procs = [subprocess.Popen(RUNNER + ["cmd", "/d", "/c", win(s)], env=ENV, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT) for s in scripts]
outputs = []
for p, script in zip(procs, scripts):
    out = p.communicate(timeout=600)[0]
    if p.returncode == 1 and not out:
        # Wine started nothing (wine_retry.py says when): that session alone, once more.
        out = subprocess.run(RUNNER + ["cmd", "/d", "/c", win(script)], env=ENV, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=600).stdout
    outputs.append(out.decode("utf-8", "replace").replace("\r\n", "\n"))
for i, out in enumerate(outputs):
    got = [line[len("got: "):] for line in out.splitlines() if line.startswith("got: ")]
    want = [toolkits[spec] for spec in orders[i % 2]]
    check(got == want, "session %d switched to its own pairs, in its order" % i, out)
check(os.listdir(os.path.join(WORK, "tmp")) == [], "TEMP is left empty", str(os.listdir(os.path.join(WORK, "tmp"))))

# A TEMP no folder can be made in (below a file): one error, a failed status, no switch.
open(os.path.join(WORK, "a-file"), "w").close()
script = os.path.join(WORK, "no_temp.cmd")
with open(script, "w", newline="\r\n") as f:
    f.write("@echo off\n"
            'set "PATH=%s;%%SystemRoot%%\\system32;%%SystemRoot%%"\n' % win(os.path.join(WORK, "store", "shims")) +
            'set "TEMP=%s"\n' % win(os.path.join(WORK, "a-file", "tmp")) +
            "call cudaenv use 11.8\n"
            "echo status: %ERRORLEVEL%\n"
            "echo got: [%CUDA_PATH%]\n")
rc, out, err = wine_retry.run_text(RUNNER + ["cmd", "/d", "/c", win(script)], ENV, 600)
check("cudaenv: error: cannot make a folder in the TEMP folder" in out + err and "status: 1" in out and "got: []" in out,
      "no folder in TEMP: an error, status 1, no switch", out + err)
wintest.finish()
