#!/usr/bin/env python3
"""Keeps the docs true to the tree (issue 27.6).

    python3 lint_docs.py --cudaenv BIN

Checks, over README.md, ARCHITECTURE.md and docs/*.md:
  commands  README's "## Commands" list names exactly the commands
            `cudaenv --help` lists (the command table), each once
  paths     every path a doc names in backticks that points into the tree
            (src/..., tests/..., `store/store.hpp`, `shell/bash/init.bash`,
            `cmake/Embed.cmake`, `src/core/cudalibs.*`) exists
  outside   no doc, source or test cites a file outside the repository
            (../shared, the design notes the project grew from)
Each finding is one line: FILE:LINE: what. Exit 1 when any is found."""
import argparse
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOCS = ["README.md", "ARCHITECTURE.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(
    os.path.join(ROOT, "docs", "*.md")))
# Folders at the top of the tree; a backticked path starting with one of
# these (or with a folder of src/, which the docs name without "src/") is a
# claim about the tree.
TOP = ("src", "tests", "shell", "python", "bench", "docs", "cmake", "packaging", "fuzz", "audit", "shims", "zlibwapi", ".ci")
TOP_FILES = ("README.md", "ARCHITECTURE.md", "CMakeLists.txt", "CMakePresets.json", "vcpkg.json", "LICENSE",
             "action.yml")
# Names of the design notes this project grew from, which live outside it.
OUTSIDE = re.compile(r"\.\./shared/|(?<![\w/.-])(nvidia-facts|product|style|cli)\.md\b")


def src_folders():
    return tuple(d for d in os.listdir(os.path.join(ROOT, "src")) if os.path.isdir(os.path.join(ROOT, "src", d)))


def exists(path):
    """A path as docs write it: a file or folder, a glob (`cudalibs.*`), or a
    module without its extension (`core/activation`)."""
    path = path.rstrip("/")
    candidates = [path]
    if path.split("/")[0] in src_folders():
        candidates.append("src/" + path)
    for c in candidates:
        full = os.path.join(ROOT, c)
        if glob.glob(full) or glob.glob(full + ".*"):
            return True
    return False


def tree_path(token):
    """The path a backticked token names, or None when it names none (a
    command line, a store path, a path on the user's machine)."""
    token = token.strip()
    if not token or " " in token or token.startswith(("/", "~", "$", "%", "-", "<")) or "://" in token:
        return None
    token = re.sub(r"[:(].*$", "", token)  # "src/app.cpp:12", "fsx::f()" is not a path
    if token in TOP_FILES:
        return token
    if "/" not in token or "\\" in token or "{" in token or "<" in token:
        return None
    first = token.split("/")[0]
    if first in TOP or first in src_folders():
        return token
    return None


def check_paths(findings):
    for doc in DOCS:
        in_fence = False
        for n, line in enumerate(open(os.path.join(ROOT, doc), encoding="utf-8"), 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for token in re.findall(r"`([^`\n]+)`", line):
                p = tree_path(token)
                if p and not exists(p):
                    findings.append("%s:%d: names `%s`, which is not in the tree" % (doc, n, token))


def check_commands(cudaenv, findings):
    out = subprocess.run([cudaenv, "--help"], capture_output=True, text=True, check=True).stdout
    table, inside = [], False
    for line in out.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            table.append(line.split()[0])
        elif inside and not line.strip():
            inside = False
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"^## Commands\n(.*?)(?=^## )", text, re.S | re.M)
    if not m:
        findings.append("README.md: no '## Commands' section")
        return
    # The first paragraph of the section is the list.
    listed = re.findall(r"`([a-z][a-z-]*)`", m.group(1).strip().split("\n\n")[0])
    for name in sorted(set(listed) - set(table)):
        findings.append("README.md: '## Commands' lists `%s`, which `cudaenv --help` does not" % name)
    for name in table:
        if name not in listed:
            findings.append("README.md: '## Commands' leaves out `%s`" % name)
    for name in sorted({x for x in listed if listed.count(x) > 1}):
        findings.append("README.md: '## Commands' lists `%s` %d times" % (name, listed.count(name)))


def check_outside(findings):
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    me = os.path.relpath(os.path.abspath(__file__), ROOT)
    for f in files:
        if f == me or not f.endswith((".md", ".cpp", ".hpp", ".c", ".h", ".py", ".sh", ".txt", ".cmake", ".toml",
                                      ".bash", ".zsh", ".fish", ".ps1", ".cmd", ".in", ".yml")):
            continue
        try:
            lines = open(os.path.join(ROOT, f), encoding="utf-8").read().splitlines()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for n, line in enumerate(lines, 1):
            if OUTSIDE.search(line):
                findings.append("%s:%d: cites a file outside the repository: %s" % (f, n, line.strip()[:100]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    args = ap.parse_args()
    findings = []
    check_commands(args.cudaenv, findings)
    check_paths(findings)
    check_outside(findings)
    for f in findings:
        print(f)
    print("lint_docs: %d finding(s)" % len(findings))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
