#!/usr/bin/env python3
"""Keeps the house's floors (issue 27.1): no include runs up a floor, and no
folder's files include each other in a circle.

    python3 lint_layers.py [--root DIR]
    python3 lint_layers.py --self-test

The rules come from one place, the folder table of ARCHITECTURE.md
(`| folder | what it is for | may depend on |`): each row `src/<folder>/`
names in its last cell the folders it may include (words that are not a
folder of src/, and anything in parentheses, are explanation; "everything
above" means every src/ folder in the rows above it). A folder may include
what the folders it names may include (the rule is transitive), and itself.
A row `src/<file>` holds for that file of src/.

Checks, over every .cpp, .hpp and .h under src/:
  layers  each `#include "<folder>/..."` of a file in src/<f>/ names a
          folder <f>'s row allows (FILE:LINE: the include, and the rule)
  cycles  within one folder, no module (x.hpp with x.cpp, x_posix.cpp and
          x_win32.cpp) reaches itself again through its includes
  table   every folder of src/ has a row
Each finding is one line. Exit 1 when any is found."""
import argparse
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
ROW = re.compile(r"^\|\s*`src/([^`]+)`\s*\|(.*)\|\s*$")


def table_rules(arch_text, folders):
    """{folder or file: set of folders it names}, from the folder table."""
    rules, order = {}, []
    for line in arch_text.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        name = m.group(1).rstrip("/")
        deps_cell = m.group(2).split("|")[-1]
        # Explanations in parentheses may name folders too ("gpu (`pair_needs` ...)"): drop them.
        while True:
            stripped = re.sub(r"\([^()]*\)", "", deps_cell)
            if stripped == deps_cell:
                break
            deps_cell = stripped
        if "everything above" in deps_cell:
            deps = {f for f in order if f in folders}
        else:
            deps = {w for w in re.findall(r"[a-z_]+", deps_cell) if w in folders}
        rules[name] = deps
        order.append(name)
    return rules


def allowed(rules, name):
    """What `name` may include: its rule's folders, and theirs, and itself."""
    seen, todo = set(), [name]
    while todo:
        n = todo.pop()
        for d in rules.get(n, ()):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    seen.add(name)
    return seen


def module_of(rel):
    """core/layout/layout.cpp -> layout/layout; platform/lock_posix.cpp -> lock."""
    stem = os.path.splitext(rel.split("/", 1)[1])[0]
    return re.sub(r"_(posix|win32)$", "", stem)


def sources(src):
    for dirpath, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".h")):
                path = os.path.join(dirpath, f)
                yield os.path.relpath(path, src).replace(os.sep, "/"), path


def check(root):
    src = os.path.join(root, "src")
    folders = {d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))}
    with open(os.path.join(root, "ARCHITECTURE.md"), encoding="utf-8") as fh:
        rules = table_rules(fh.read(), folders)
    findings = []
    for f in sorted(folders - set(rules)):
        findings.append(f"ARCHITECTURE.md: src/{f}/ has no row in the folder table")
    edges = {}  # folder -> module -> modules of that folder it includes
    for rel, path in sources(src):
        owner = rel.split("/", 1)[0] if "/" in rel else rel
        with open(path, encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m or "/" not in m.group(1):
                continue
            target = m.group(1).split("/", 1)[0]
            if target not in folders:
                continue
            if owner in rules and target not in allowed(rules, owner):
                rule = ", ".join(sorted(rules[owner])) or "nothing"
                findings.append(f"src/{rel}:{n}: includes \"{m.group(1)}\", but src/{owner}"
                                f"{'/' if owner in folders else ''} may depend on {rule} (ARCHITECTURE.md)")
            if target == owner and owner in folders and module_of(rel) != module_of(m.group(1)):
                edges.setdefault(owner, {}).setdefault(module_of(rel), set()).add(module_of(m.group(1)))
    for folder in sorted(edges):
        findings += [f"src/{folder}/: include cycle {' -> '.join(c)}" for c in cycles(edges[folder])]
    return findings


def cycles(graph):
    """One cycle per strongly connected part of more than one module (or a self-loop), as a path."""
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


def self_test():
    """A tree with one upward include and one cycle must fail with both; the same tree fixed must pass."""
    table = ("| folder | what it is for | may depend on |\n|---|---|---|\n"
             "| `src/low/` | the floor | util (`x`, `y`) |\n"
             "| `src/util/` | tools | std |\n"
             "| `src/high/` | above | low (`high` names no `util`) |\n"
             "| `src/top/` | the top | everything above |\n")
    files = {
        "low/a.hpp": '#pragma once\n#include "util/u.hpp"\n',
        "low/a.cpp": '#include "low/a.hpp"\n#include "low/b.hpp"\n',
        "low/b.hpp": '#pragma once\n#include "low/a.hpp"\n',
        "low/c.cpp": '#include "high/h.hpp"\n',
        "util/u.hpp": "#pragma once\n",
        "high/h.hpp": '#pragma once\n#include "low/a.hpp"\n#include "util/u.hpp"\n',
        "top/t.cpp": '#include "high/h.hpp"\n#include "low/a.hpp"\n#include "cudaenv_version.hpp"\n',
    }
    ok = True
    with tempfile.TemporaryDirectory() as root:
        with open(os.path.join(root, "ARCHITECTURE.md"), "w") as fh:
            fh.write(table)
        for rel, text in files.items():
            os.makedirs(os.path.join(root, "src", os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, "src", rel), "w") as fh:
                fh.write(text)
        found = check(root)
        want = ['src/low/c.cpp:1: includes "high/h.hpp", but src/low/ may depend on util (ARCHITECTURE.md)',
                "src/low/: include cycle a -> b -> a"]
        if found != want:
            print("self-test: the planted tree gave:\n  " + "\n  ".join(found) + "\nwanted:\n  " + "\n  ".join(want))
            ok = False
        os.remove(os.path.join(root, "src", "low", "c.cpp"))
        with open(os.path.join(root, "src", "low", "b.hpp"), "w") as fh:
            fh.write("#pragma once\n")
        if check(root):
            print("self-test: the fixed tree gave:\n  " + "\n  ".join(check(root)))
            ok = False
    print("self-test: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=os.path.normpath(os.path.join(HERE, "..", "..")))
    ap.add_argument("--self-test", action="store_true", help="check the checker on a planted tree")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    findings = check(args.root)
    for f in findings:
        print(f)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
