#!/usr/bin/env python3
"""Keeps the house's floors (issues 27.1 and 36.2): no include runs up a
floor, no two folders include each other, and no folder's files include each
other in a circle.

    python3 lint_layers.py [--root DIR]
    python3 lint_layers.py --self-test

The rules come from one place, the folder table of ARCHITECTURE.md
(`| folder | what it is for | may depend on |`): each row `src/<folder>/`
(or a top-level folder of C and C++ sources: `shims/`, `audit/`) names in its
last cell the folders of src/ it may include; "everything above" means every
src/ folder in the rows above it. A folder named there may be narrowed by the
modules in backticks in the parentheses after it: "setup (`exec_policy`, for
doctor)" allows setup/exec_policy.hpp and nothing else of setup/. Every word
in backticks there must be a module of that folder (a rule that names no
module would be a rule nobody checks); the other words in parentheses, and
words that are not a folder of src/, are explanation. A folder may include
what the folders it names may include (the rule is transitive), and itself.
A row `src/<file>` holds for that file of src/.

Checks, over every .cpp, .hpp, .h and .c under src/ and the checked top-level
folders:
  layers  each `#include "<folder>/..."` of a file names a folder (and, where
          its rule narrows it, a module) the file's row allows (FILE:LINE:
          the include, and the rule)
  rules   every module a rule names in backticks exists
  mutual  no two folders include each other, directly or round a circle,
          whatever the table says
  cycles  within one folder, no module (x.hpp with x.cpp, x_posix.cpp and
          x_win32.cpp) reaches itself again through its includes
  table   every folder of src/ has a row
  banned  no file includes a header the project does not use, whatever its
          folder: <regex> (std::regex's matcher recurses once per character,
          so a long line from a mirror or a file crashed it; docs/install.md
          says what reads such text instead)
Each finding is one line. Exit 1 when any is found."""
import os
import re
import sys
import tempfile

import lintmain

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ROW = re.compile(r"^\|\s*`((?:src/)?[^`]+)`\s*\|(.*)\|\s*$")
TOP_LEVEL = ("shims", "audit")  # folders of sources outside src/ that the table rules
EXTS = (".cpp", ".hpp", ".h", ".c")
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s*<([^>]+)>")
BANNED = {"regex": "std::regex recurses once per character (docs/install.md)"}
ALL = None  # a rule that allows every module of a folder


def modules_of(src, folder):
    """The module names of src/<folder>/ (file stems, _posix/_win32 folded, subfolders as sub/stem)."""
    out = set()
    for rel, _ in sources(os.path.join(src, folder)):
        out.add(re.sub(r"_(posix|win32)$", "", os.path.splitext(rel)[0]))
    return out


def parse_cell(cell, folders, order, src, where, findings):
    """{folder: set of modules, or ALL} from one `may depend on` cell."""
    deps = {}
    if "everything above" in cell:
        for f in order:
            if f in folders:
                deps[f] = ALL
    # Each word, with the parenthesis right after it (if any).
    for m in re.finditer(r"([a-z_]+)\s*(\(((?:[^()]|\([^()]*\))*)\))?", cell):
        word, paren = m.group(1), m.group(3)
        if paren is not None and m.start(1) > 0 and cell[m.start(1) - 1] == "`":
            continue
        if word not in folders:
            continue
        named = re.findall(r"`([^`]+)`", paren or "")
        if not named:
            deps[word] = ALL
            continue
        mods = modules_of(src, word)
        narrowed = set()
        for n in named:
            if n in mods:
                narrowed.add(n)
            else:
                findings.append(f"ARCHITECTURE.md: the rule of {where} names `{n}`, which is no module of src/{word}/")
        if deps.get(word, set()) is ALL:
            continue
        deps[word] = deps.get(word, set()) | narrowed
    return deps


def table_rules(arch_text, folders, src, findings):
    """{row name: {folder: modules or ALL}}, from the folder table."""
    rules, order = {}, []
    for line in arch_text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        name = m.group(1).rstrip("/")
        if name.startswith("src/"):
            name = name[4:]
        elif name not in TOP_LEVEL:
            continue
        where = f"`{m.group(1)}`"
        rules[name] = parse_cell(m.group(2).split("|")[-1], folders, order, src, where, findings)
        order.append(name)
    return rules


def allowed(rules, name):
    """What `name` may include: {folder: modules or ALL}, its rule's and theirs (transitively), and itself."""
    out, todo = {name: ALL}, [name]
    while todo:
        n = todo.pop()
        for d, mods in rules.get(n, {}).items():
            have = out.get(d, set())
            if have is ALL:
                continue
            new = ALL if mods is ALL else have | mods
            if new != have or d not in out:
                out[d] = new
                todo.append(d)
    return out


def module_of(rel):
    """core/layout/layout.cpp -> layout/layout; platform/lock_posix.cpp -> lock."""
    stem = os.path.splitext(rel.split("/", 1)[1])[0]
    return re.sub(r"_(posix|win32)$", "", stem)


def sources(src):
    for dirpath, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith(EXTS):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, src).replace(os.sep, "/"), path


def rule_text(deps):
    parts = []
    for d in sorted(deps):
        parts.append(d if deps[d] is ALL else d + " (" + ", ".join(sorted(deps[d])) + ")")
    return ", ".join(parts) or "nothing"


def check(root):
    src = os.path.join(root, "src")
    folders = {d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))}
    findings = []
    with open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as fh:
        rules = table_rules(fh.read(), folders, src, findings)
    for f in sorted(folders - set(rules)):
        findings.append(f"ARCHITECTURE.md: src/{f}/ has no row in the folder table")
    files = [(rel, path, f"src/{rel}") for rel, path in sources(src)]
    for top in TOP_LEVEL:
        if top in rules and os.path.isdir(os.path.join(root, top)):
            files += [(f"{top}/{rel}", path, f"{top}/{rel}") for rel, path in sources(os.path.join(root, top))]
    edges = {}    # folder -> module -> modules of that folder it includes
    between = {}  # folder -> folder it includes -> first place it does
    for rel, path, shown in files:
        owner = rel.split("/", 1)[0] if "/" in rel else rel
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
        may = allowed(rules, owner) if owner in rules else None
        for n, line in enumerate(lines, 1):
            banned = SYSTEM_INCLUDE.match(line)
            if banned and banned.group(1) in BANNED:
                findings.append(f"{shown}:{n}: includes <{banned.group(1)}>: {BANNED[banned.group(1)]}")
            m = INCLUDE.match(line)
            if not m or "/" not in m.group(1):
                continue
            target = m.group(1).split("/", 1)[0]
            if target not in folders:
                continue
            mod = re.sub(r"_(posix|win32)$", "", os.path.splitext(m.group(1).split("/", 1)[1])[0])
            if may is not None:
                ok = target in may and (may[target] is ALL or mod in may[target])
                if not ok:
                    slash = "/" if owner in folders or owner in TOP_LEVEL else ""
                    prefix = "" if owner in TOP_LEVEL else "src/"
                    findings.append(f"{shown}:{n}: includes \"{m.group(1)}\", but {prefix}{owner}{slash}"
                                    f" may depend on {rule_text(rules[owner])} (ARCHITECTURE.md)")
            if target != owner:
                between.setdefault(owner, {}).setdefault(target, f"{shown}:{n}")
            elif owner in folders and module_of(rel) != module_of(m.group(1)):
                edges.setdefault(owner, {}).setdefault(module_of(rel), set()).add(module_of(m.group(1)))
    graph = {a: set(bs) for a, bs in between.items()}
    for c in cycles(graph):
        steps = [f"{c[i]} -> {c[i + 1]} ({between[c[i]][c[i + 1]]})" for i in range(len(c) - 1)]
        findings.append("folders include each other: " + ", ".join(steps))
    for folder in sorted(edges):
        findings += [f"src/{folder}/: include cycle {' -> '.join(c)}" for c in cycles(edges[folder])]
    return findings


def cycles(graph):
    """One cycle per strongly connected part of more than one node (or a self-loop), as a path."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph.get(v, ()):
                out.append(path_in(graph, set(part), min(part)))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return out


def path_in(graph, part, start):
    """A cycle from `start` back to it inside `part` (breadth first: the shortest)."""
    prev, todo = {}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph.get(v, ())):
            if w not in part:
                continue
            if w == start:
                path = [v]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return [start]


def plant(root, table, files):
    with open(os.path.join(root, "ARCHITECTURE.md"), "w") as fh:
        fh.write("| folder | what it is for | may depend on |\n|---|---|---|\n" + table)
    for rel, text in files.items():
        os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
        with open(os.path.join(root, rel), "w") as fh:
            fh.write(text)


def self_test():
    """Planted trees: each finding the checker makes must be made, and a fixed tree must pass."""
    table = ("| `src/low/` | the floor | util |\n"
             "| `src/util/` | tools | std |\n"
             "| `src/high/` | above | low (`a`: only it), util |\n"
             "| `src/top/` | the top | everything above |\n"
             "| `shims/` | a program | high |\n"
             "| `audit/` | plain C | libc, util (`u`) |\n")
    files = {
        "src/low/a.hpp": '#pragma once\n#include "util/u.hpp"\n',
        "src/low/a.cpp": '#include "low/a.hpp"\n#include "low/b.hpp"\n',
        "src/low/b.hpp": '#pragma once\n#include "low/a.hpp"\n',
        "src/low/c.cpp": '#include "high/h.hpp"\n',
        "src/util/u.hpp": "#pragma once\n",
        "src/util/v.hpp": "#pragma once\n",
        "src/high/h.hpp": '#pragma once\n#include "low/a.hpp"\n#include "util/u.hpp"\n',
        "src/high/h.cpp": '#include "high/h.hpp"\n#include "low/b.hpp"\n',
        "src/top/t.cpp": '#include "high/h.hpp"\n#include "low/a.hpp"\n#include "cudaenv_version.hpp"\n'
                         '#include <regex>\n',
        "shims/s.cpp": '#include "high/h.hpp"\n#include "low/a.hpp"\n#include "top/t.hpp"\n',
        "audit/x.c": '#include <stdlib.h>\n#include "util/u.hpp"\n#include "util/v.hpp"\n',
    }
    ok = True

    def expect(what, found, want):
        nonlocal ok
        if found != want:
            print(f"self-test ({what}): the planted tree gave:\n  " + "\n  ".join(found) +
                  "\nwanted:\n  " + "\n  ".join(want))
            ok = False

    with tempfile.TemporaryDirectory() as root:
        plant(root, table, files)
        expect("upward include, narrowed rule, circle, a banned header", check(root), [
            'src/top/t.cpp:4: includes <regex>: std::regex recurses once per character (docs/install.md)',
            'src/high/h.cpp:2: includes "low/b.hpp", but src/high/ may depend on low (a), util (ARCHITECTURE.md)',
            'src/low/c.cpp:1: includes "high/h.hpp", but src/low/ may depend on util (ARCHITECTURE.md)',
            'shims/s.cpp:3: includes "top/t.hpp", but shims/ may depend on high (ARCHITECTURE.md)',
            'audit/x.c:3: includes "util/v.hpp", but audit/ may depend on util (u) (ARCHITECTURE.md)',
            "folders include each other: high -> low (src/high/h.cpp:2), low -> high (src/low/c.cpp:1)",
            "src/low/: include cycle a -> b -> a",
        ])
        # Two folders whose rules allow each other still may not include each other.
        plant(root, table.replace("| `src/low/` | the floor | util |", "| `src/low/` | the floor | util, high |"), {})
        found = [f for f in check(root) if "each other" in f]
        expect("a circle the table allows", found,
               ["folders include each other: high -> low (src/high/h.cpp:2), low -> high (src/low/c.cpp:1)"])
        # A rule naming a module that does not exist is a finding.
        plant(root, table.replace("low (`a`: only it)", "low (`a`, `nosuch`)"), {})
        found = [f for f in check(root) if f.startswith("ARCHITECTURE.md")]
        expect("a rule naming no module", found,
               ["ARCHITECTURE.md: the rule of `src/high/` names `nosuch`, which is no module of src/low/"])
        plant(root, table, {"src/low/c.cpp": "\n", "src/low/b.hpp": "#pragma once\n",
                            "src/top/t.cpp": '#include "high/h.hpp"\n#include "low/a.hpp"\n',
                            "src/high/h.cpp": '#include "high/h.hpp"\n', "shims/s.cpp": '#include "high/h.hpp"\n',
                            "audit/x.c": '#include "util/u.hpp"\n'})
        expect("the fixed tree", check(root), [])
    print("self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(lintmain.main(__doc__, check, self_test, "lint_layers"))
