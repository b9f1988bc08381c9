#!/usr/bin/env python3
"""Turns bench/run.sh's JSON into one Markdown summary (stdout and summary.md)."""
import json
import os
import platform
import subprocess
import sys
import time

res = sys.argv[1]


def load(name):
    path = os.path.join(res, name + ".json")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {r["command"]: r for r in json.load(f)["results"]}


def ms(r):
    return r["median"] * 1000


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


rows = []  # (what, cudaenv ms, goal, peer, peer ms)


def ratio(a, b):
    return "%.0fx" % (b / a) if a > 0 else "-"


shim, pyshim = load("shim"), load("pyenv_shim")
shell, env, direnv = load("shell"), load("env"), load("direnv")
with open(os.path.join(res, "inshell.json")) as f:
    inshell = json.load(f)

lines = []
cpu = sh("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
lines.append("Machine: %s, %s cores, load %s; %s; %s" % (cpu, os.cpu_count(), sh("cut -d' ' -f1-3 /proc/loadavg"),
                                                      sh(". /etc/os-release; echo $PRETTY_NAME"), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
lines.append("")
lines.append("| what | cudaenv | goal | peer | peer's | peer / cudaenv |")
lines.append("|---|---|---|---|---|---|")

if shim:
    added = ms(shim["nvcc via cudaenv shim"]) - ms(shim["nvcc direct"])
    peer, peer_ms = "pyenv shim (python3 --version)", None
    if pyshim:
        peer_ms = ms(pyshim["python3 via pyenv shim"]) - ms(pyshim["python3 direct"])
    lines.append("| tool call through the shim, added (median) | %.2f ms | < 2 ms | %s | %s | %s |" % (
        added, peer, "%.1f ms" % peer_ms if peer_ms is not None else "-", ratio(added, peer_ms) if peer_ms else "-"))
if env:
    r = env["cudaenv env 11.8 --shell bash"]
    lines.append("| `cudaenv env 11.8 --shell bash` (whole process) | %.2f ms | < 5 ms | | | |" % ms(r))
if shell:
    start = ms(shell["bash start"])
    init = ms(shell["bash + eval cudaenv init"]) - start
    use = ms(shell["bash + init + cudaenv use 11.8"]) - ms(shell["bash + eval cudaenv init"])
    lmod = None
    if "bash + lmod init + module load cuda/11.8" in shell:
        lmod = ms(shell["bash + lmod init + module load cuda/11.8"]) - ms(shell["bash + lmod init"])
    lines.append("| `cudaenv use 11.8` in bash (hyperfine, minus bash + init) | %.2f ms | < 5 ms | Lmod `module load cuda/11.8` | %s | %s |" % (
        use, "%.1f ms" % lmod if lmod is not None else "-", ratio(use, lmod) if lmod else "-"))
    py = None
    if "bash + eval pyenv init" in shell:
        py = ms(shell["bash + eval pyenv init"]) - start
    lines.append("| evaluating `cudaenv init bash` (minus bash start) | %.2f ms | < 10 ms | `pyenv init - bash` | %s | %s |" % (
        init, "%.1f ms" % py if py is not None else "-", ratio(init, py) if py else "-"))
u = inshell.get("cudaenv use (11.8 <-> 12.4)")
lm = inshell.get("module load cuda/11.8 + unload")
if u is not None:
    lines.append("| `cudaenv use` in one bash, per call (loop) | %.2f ms | < 5 ms | Lmod load+unload / 2 | %s | %s |" % (
        u / 1000, "%.1f ms" % (lm / 1000) if lm else "-", ratio(u, lm) if lm else "-"))
h = inshell.get("prompt hook, nothing changed")
dh = inshell.get("direnv hook (_direnv_hook), nothing changed")
de = ms(direnv["direnv export bash (.envrc loaded)"]) if direnv else None
if h is not None:
    lines.append("| prompt hook, nothing changed, per prompt | %.3f ms, %s processes / 50 prompts | < 0.5 ms, none | direnv `_direnv_hook` | %s | %s |" % (
        h / 1000, inshell.get("processes per 50 unchanged prompts", "?"), "%.1f ms" % (dh / 1000) if dh else "-", ratio(h, dh) if dh else "-"))
    c = inshell.get("prompt hook, cd between two projects")
    if c is not None:
        lines.append("| prompt hook after `cd` into / out of a project, per prompt | %.2f ms | one call | | | |" % (c / 1000))
elif dh:
    lines.append("| prompt hook | not measured (no `__cudaenv_hook` in this build) | < 0.5 ms | direnv `_direnv_hook` | %.1f ms | |" % (dh / 1000))
if de is not None:
    lines.append("| (peer only) `direnv export bash` | | | direnv | %.1f ms | |" % de)

lines.append("")
lines.append("Raw medians (ms):")
lines.append("")
for group in (shim, pyshim, env, shell, direnv):
    for name, r in group.items():
        lines.append("- %s: %.2f (mean %.2f, σ %.2f, %d runs)" % (name, ms(r), r["mean"] * 1000, r["stddev"] * 1000, len(r["times"])))
for k, v in inshell.items():
    if k != "unit":
        lines.append("- in one bash, %s: %s µs" % (k, v))
text = "\n".join(lines) + "\n"
with open(os.path.join(res, "summary.md"), "w") as f:
    f.write(text)
print(text)
