#!/usr/bin/env python3
"""Turns bench/run.sh's JSON into one Markdown summary (stdout and summary.md).

Two figures per row: the wall-clock median, and the CPU time (user + system
of the process and its children, mean). On a busy machine wall time mostly
measures waiting for a core; CPU time measures the work, so the goals are
checked against both and the ratios to the peers are given for both.
"""
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


def wall(r):
    return r["median"] * 1000


def cpu(r):
    return (r["user"] + r["system"]) * 1000


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def fmt(pair):
    return "%.2f / %.2f ms" % pair if pair else "-"


def ratio(ours, peer):
    if not ours or not peer:
        return "-"
    return "%.0fx / %.0fx" % (peer[0] / ours[0] if ours[0] > 0 else 0, peer[1] / ours[1] if ours[1] > 0 else 0)


def diff(group, a, b):
    """(wall, cpu) of command a minus command b."""
    if a not in group or b not in group:
        return None
    return (wall(group[a]) - wall(group[b]), cpu(group[a]) - cpu(group[b]))


def one(group, a):
    return (wall(group[a]), cpu(group[a])) if a in group else None


def loop(v, k):
    x = v.get(k)
    return (x["wall_us"] / 1000, x["cpu_us"] / 1000) if isinstance(x, dict) else None


shim, pyshim = load("shim"), load("pyenv_shim")
shell, env, direnv = load("shell"), load("env"), load("direnv")
with open(os.path.join(res, "inshell.json")) as f:
    inshell = json.load(f)

cpu_name = sh("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
lines = [
    "Machine: %s, %s cores, load average %s at the start; %s; %s" % (
        cpu_name, os.cpu_count(), sh("cut -d' ' -f1-3 /proc/loadavg"),
        sh(". /etc/os-release; echo $PRETTY_NAME"), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())),
    "",
    "Each cell: wall-clock median / CPU time (user + system). Ratios: peer ÷ cudaenv, same order.",
    "",
    "| what | cudaenv | goal | peer | peer's | peer ÷ cudaenv |",
    "|---|---|---|---|---|---|",
]
s = diff(shim, "nvcc via cudaenv shim", "nvcc direct")
p = diff(pyshim, "python3 via pyenv shim", "python3 direct")
lines.append("| tool call through the shim, time added | %s | < 2 ms | pyenv shim (`python3 --version`) | %s | %s |" % (fmt(s), fmt(p), ratio(s, p)))
e = one(env, "cudaenv env 11.8 --shell bash")
lines.append("| `cudaenv env 11.8 --shell bash` | %s | | | | |" % fmt(e))
u = diff(shell, "bash + init + cudaenv use 11.8", "bash + eval cudaenv init")
l = diff(shell, "bash + lmod init + module load cuda/11.8", "bash + lmod init")
lines.append("| `cudaenv use 11.8` in bash (hyperfine, minus bash + init) | %s | < 5 ms | Lmod `module load cuda/11.8` | %s | %s |" % (fmt(u), fmt(l), ratio(u, l)))
ul, ll = loop(inshell, "cudaenv use (11.8 <-> 12.4)"), loop(inshell, "module load cuda/11.8 + unload")
lines.append("| `cudaenv use` in one bash, per call (loop) | %s | < 5 ms | Lmod load / unload, per call | %s | %s |" % (fmt(ul), fmt(ll), ratio(ul, ll)))
i = diff(shell, "bash + eval cudaenv init", "bash start")
pi = diff(shell, "bash + eval pyenv init", "bash start")
lines.append("| evaluating `cudaenv init bash` (minus bash start) | %s | < 10 ms | `pyenv init - bash` | %s | %s |" % (fmt(i), fmt(pi), ratio(i, pi)))
h, dh = loop(inshell, "prompt hook, nothing changed"), loop(inshell, "direnv hook (_direnv_hook), nothing changed")
procs = inshell.get("processes per 50 unchanged prompts", "?")
if h:
    lines.append("| prompt hook, nothing changed, per prompt | %s; %s processes in 50 prompts | < 0.5 ms, no process | direnv's `_direnv_hook` | %s | %s |" % (fmt(h), procs, fmt(dh), ratio(h, dh)))
    c = loop(inshell, "prompt hook, cd between two projects")
    if c:
        lines.append("| prompt hook right after `cd` into / out of a project | %s | one call | | | |" % fmt(c))
else:
    lines.append("| prompt hook | not measured: no `__cudaenv_hook` in that build | < 0.5 ms | direnv's `_direnv_hook` | %s | |" % fmt(dh))
de = one(direnv, "direnv export bash (.envrc loaded)")
if de:
    lines.append("| (peer only) `direnv export bash` | | | direnv | %s | |" % fmt(de))

lines += ["", "Raw figures (hyperfine: median, mean, σ wall; CPU = user + system mean):", ""]
for group in (shim, pyshim, env, shell, direnv):
    for name, r in group.items():
        lines.append("- %s: %.2f ms median, %.2f mean, σ %.2f, CPU %.2f ms, %d runs" % (
            name, wall(r), r["mean"] * 1000, r["stddev"] * 1000, cpu(r), len(r["times"])))
for k, v in inshell.items():
    if isinstance(v, dict):
        lines.append("- in one bash, %s: %.3f ms wall, %.3f ms CPU per call" % (k, v["wall_us"] / 1000, v["cpu_us"] / 1000))
    elif k != "unit":
        lines.append("- in one bash, %s: %s" % (k, v))
text = "\n".join(lines) + "\n"
with open(os.path.join(res, "summary.md"), "w") as f:
    f.write(text)
print(text)
