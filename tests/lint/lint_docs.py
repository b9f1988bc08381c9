#!/usr/bin/env python3
"""Keeps the docs true to the tree (issues 27.6 and 36.6).

    python3 lint_docs.py --cudaenv BIN [--root DIR]
    python3 lint_docs.py --cudaenv BIN --self-test

Checks, over README.md, ARCHITECTURE.md and docs/*.md:
  commands  README's "## Commands" list names exactly the commands
            `cudaenv --help` lists (the command table), each once
  options   every `--option` a doc gives a cudaenv command (`cudaenv list
            --all`, in a code span or a code block; up to `--`, `|`, `;`, `#`)
            is one that command (or its subcommand: `kernel add`) defines in
            its own `--help`, or a global option
  paths     every path a doc names that points into the tree exists: in
            backticks (src/..., `store/store.hpp`, `shell/bash/init.bash`,
            `cmake/Embed.cmake`, `src/core/cudalibs.*`) or bare in the prose
            (tests/unit/layout_test.cpp)
  links     every relative Markdown link leads to a file, and its `#anchor`
            to a heading of that file (GitHub's anchors)
  table     ARCHITECTURE.md's folder table: every folder of src/ has a row,
            every folder a row names exists, and every name in backticks in
            a src/ row's "what it is for" (a module, a function, a type) is
            one of that folder's modules or occurs in its sources (a
            type or a target named in passing: anywhere in the tree).
            The rows' rules ("may depend on") are tests/lint/lint_layers.py's.
  outside   no doc, source or test cites a file outside the repository
            (../shared, the design notes the project grew from)
Each finding is one line: FILE:LINE: what. Exit 1 when any is found.
--self-test plants each kind of finding in a tree of its own and checks that
each is found, and that the tree without them passes."""
import glob
import os
import re
import subprocess
import sys
import tempfile

import lintmain

# Folders at the top of the tree; a path starting with one of these (or, in
# backticks, with a folder of src/, which the docs name without "src/") is a
# claim about the tree.
TOP = ("src", "tests", "shell", "python", "bench", "docs", "cmake", "packaging", "fuzz", "audit", "shims",
       "zlibwapi", "action", ".ci")
TOP_FILES = ("README.md", "ARCHITECTURE.md", "CMakeLists.txt", "CMakePresets.json", "vcpkg.json", "LICENSE",
             "action.yml")
BARE_PATH = re.compile(r"(?<![\w/.~$%%-])((?:%s)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*/])" %
                       "|".join(re.escape(t) for t in TOP))
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
# `cudaenv <command> <words>`; the words end at the first shell operator, a
# comment or `--` (what follows is another program's).
COMMAND = re.compile(r"(?<![\w./-])cudaenv(?:\.exe)?[ \t]+([a-z][a-z-]*)([^\n`]*)")
STOP = {"|", "||", "&&", ";", "--", "#", ")", "2>&1"}
OPTION_DEF = re.compile(r"^  (?:-\w,)*(--[a-z][\w-]*)((?:,--?[\w-]+)*)")
# Names of the design notes this project grew from, which live outside it.
OUTSIDE = re.compile(r"\.\./shared/|(?<![\w/.-])(nvidia-facts|product|style|cli)\.md\b")
SOURCE_EXTS = (".md", ".cpp", ".hpp", ".c", ".h", ".py", ".sh", ".txt", ".cmake", ".toml", ".bash", ".zsh",
               ".fish", ".ps1", ".cmd", ".in", ".yml", ".json")


class Tree:
    """The tree being checked, and what the built cudaenv says of itself."""

    def __init__(self, root, cudaenv):
        self.root = root
        self.cudaenv = cudaenv
        self.docs = ["README.md", "ARCHITECTURE.md"] + sorted(
            os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
        self._help = {}
        self._anchors = {}

    def path(self, rel):
        return os.path.join(self.root, rel)

    def lines(self, doc):
        """(line number, line, inside a ``` block) of a doc."""
        in_fence = False
        for n, line in enumerate(open(self.path(doc), encoding="utf-8"), 1):
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                continue
            yield n, line, in_fence

    def prose(self):
        """(doc, line number, line) of every doc, outside ``` blocks."""
        for doc in self.docs:
            for n, line, in_fence in self.lines(doc):
                if not in_fence:
                    yield doc, n, line

    def src_folders(self):
        src = self.path("src")
        return tuple(sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))))

    def help(self, words):
        key = tuple(words)
        if key not in self._help:
            self._help[key] = subprocess.run([self.cudaenv] + list(words) + ["--help"], capture_output=True,
                                             text=True).stdout
        return self._help[key]


def subcommands(help_text):
    names, inside = [], False
    for line in help_text.splitlines():
        if line.startswith("Subcommands:"):
            inside = True
        elif inside and line.startswith("  ") and line.strip():
            names.append(line.split()[0])
        elif inside and not line.strip():
            inside = False
    return names


def options(help_text):
    """The long options a --help defines: CLI11's option lines, and the options
    of a `Usage:` line for a command that parses its own words (`trace`)."""
    names = set()
    for line in help_text.splitlines():
        m = OPTION_DEF.match(line)
        if m:
            names.add(m.group(1))
            names.update(x for x in m.group(2).split(",") if x.startswith("--"))
        elif line.startswith("Usage:"):
            names.update(re.findall(r"(?<![\w-])(--[a-z][\w-]*)", line))
    return names


def exists(tree, path):
    """A path as docs write it: a file or folder, a glob (`cudalibs.*`), or a
    module without its extension (`core/activation`)."""
    path = path.rstrip("/")
    candidates = [path]
    if path.split("/")[0] in tree.src_folders():
        candidates.append("src/" + path)
    for c in candidates:
        full = tree.path(c)
        if glob.glob(full) or glob.glob(full + ".*"):
            return True
    return False


def tree_path(tree, token):
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
    if first in TOP or first in tree.src_folders():
        return token
    return None


def check_paths(tree, findings):
    for doc, n, line in tree.prose():
        for token in re.findall(r"`([^`\n]+)`", line):
            p = tree_path(tree, token)
            if p and not exists(tree, p):
                findings.append("%s:%d: names `%s`, which is not in the tree" % (doc, n, token))
        prose = re.sub(r"`[^`\n]*`", "", LINK.sub("", line))
        for p in BARE_PATH.findall(prose):
            if not exists(tree, p.rstrip(".")):
                findings.append("%s:%d: names %s, which is not in the tree" % (doc, n, p))


def check_commands(tree, findings):
    table = subcommands(tree.help([]))
    text = open(tree.path("README.md"), encoding="utf-8").read()
    m = re.search(r"^## Commands\n(.*?)(?=^## |\Z)", text, re.S | re.M)
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


def check_options(tree, findings):
    commands = set(subcommands(tree.help([])))
    global_options = options(tree.help([]))
    for doc in tree.docs:
        for n, line, in_fence in tree.lines(doc):
            for text in ([line] if in_fence else re.findall(r"`([^`\n]+)`", line)):
                for m in COMMAND.finditer(text):
                    if m.group(1) not in commands:
                        continue
                    words = []
                    for w in m.group(2).split():
                        if w in STOP or w.startswith(("#", "|", ">", "$(")):
                            break
                        words.append(w)
                    command = [m.group(1)]
                    positionals = [w for w in words if not w.startswith("-")]
                    if positionals and positionals[0] in subcommands(tree.help(command)):
                        command.append(positionals[0])
                    known = options(tree.help(command)) | global_options
                    for w in words:
                        name = re.match(r"--[A-Za-z0-9][\w-]*", w)
                        if name and name.group(0) not in known:
                            findings.append("%s:%d: gives `cudaenv %s` the option %s, which its --help does not "
                                            "define" % (doc, n, " ".join(command), name.group(0)))


def anchors(tree, doc):
    """GitHub's anchors for a doc's headings: lower case, punctuation dropped,
    spaces as '-', a repeated heading numbered (-1, -2, ...). Read once a doc."""
    if doc in tree._anchors:
        return tree._anchors[doc]
    seen, out = {}, set()
    tree._anchors[doc] = out
    for _, line, in_fence in tree.lines(doc):
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if in_fence or not m:
            continue
        slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
        out.add(slug if slug not in seen else "%s-%d" % (slug, seen[slug]))
        seen[slug] = seen.get(slug, 0) + 1
    return out


def check_links(tree, findings):
    for doc, n, line in tree.prose():
        for target in LINK.findall(re.sub(r"`[^`\n]*`", "", line)):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file, _, anchor = target.partition("#")
            rel = os.path.normpath(os.path.join(os.path.dirname(doc), file)) if file else doc
            if not os.path.exists(tree.path(rel)):
                findings.append("%s:%d: links to %s, which is not in the tree" % (doc, n, target))
            elif anchor and rel.endswith(".md") and anchor not in anchors(tree, rel):
                findings.append("%s:%d: links to %s, but %s has no heading #%s" % (doc, n, target, rel, anchor))


def text_of(tree, folder):
    out = []
    for f in glob.glob(tree.path(folder) + "/**/*", recursive=True):
        if os.path.isfile(f) and f.endswith(SOURCE_EXTS):
            out.append(open(f, encoding="utf-8", errors="replace").read())
    return "\n".join(out)


def check_table(tree, findings):
    rows = []
    for n, line, in_fence in tree.lines("ARCHITECTURE.md"):
        if not in_fence and line.startswith("| `"):
            rows.append((n, [c.strip() for c in line.strip().strip("|").split("|")]))
    named = set()
    whole_tree = None
    for n, cells in rows:
        folders = re.findall(r"`([^`]+)`", cells[0])
        named.update(f.rstrip("/") for f in folders)
        for f in folders:
            if "<" not in f and not os.path.exists(tree.path(f)):
                findings.append("ARCHITECTURE.md:%d: the folder table has a row for %s, which is not in the tree"
                                % (n, f))
        folder = folders[0].rstrip("/") if folders else ""
        if not folder.startswith("src/") or not os.path.isdir(tree.path(folder)) or len(cells) < 2:
            continue
        stems = {os.path.splitext(os.path.basename(p))[0]
                 for p in glob.glob(tree.path(folder) + "/**/*", recursive=True)}
        text = text_of(tree, folder)
        for word in re.findall(r"`([^`]+)`", cells[1]):
            if not re.fullmatch(r"[A-Za-z_][\w:]*(\(\))?/?|[\w.-]+\.(cpp|hpp|c|h|toml)", word):
                continue  # a path (the paths check), a command line, a value
            name = word.rstrip("/").replace("()", "")
            if name in stems or os.path.exists(os.path.join(tree.path(folder), name)):
                continue
            parts = [p for p in name.split("::") if p]
            if all(re.search(r"\b%s\b" % re.escape(p), text) for p in parts):
                continue
            # A type or a CMake target named in passing (`Store` in core's row,
            # `cudaenv_tests`) may live anywhere; a module's name must be here.
            if name[0].isupper() or name.startswith("cudaenv_"):
                if whole_tree is None:
                    whole_tree = "\n".join(text_of(tree, d) for d in ("src", "tests", "cmake"))
                    if os.path.exists(tree.path("CMakeLists.txt")):
                        whole_tree += open(tree.path("CMakeLists.txt"), encoding="utf-8").read()
                if all(re.search(r"\b%s\b" % re.escape(p), whole_tree) for p in parts):
                    continue
            findings.append("ARCHITECTURE.md:%d: the row of %s/ names `%s`, which is neither a module of it nor "
                            "in its sources" % (n, folder, word))
    for d in tree.src_folders():
        if "src/" + d not in named:
            findings.append("ARCHITECTURE.md: the folder table has no row for src/%s/" % d)


def check_outside(tree, findings, me):
    files = subprocess.run(["git", "ls-files"], cwd=tree.root, capture_output=True, text=True).stdout.split()
    for f in files:
        if f == me or not f.endswith(SOURCE_EXTS):
            continue
        try:
            lines = open(tree.path(f), encoding="utf-8").read().splitlines()
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        for n, line in enumerate(lines, 1):
            if OUTSIDE.search(line):
                findings.append("%s:%d: cites a file outside the repository: %s" % (f, n, line.strip()[:100]))


def check(root, cudaenv):
    tree = Tree(root, cudaenv)
    findings = []
    check_commands(tree, findings)
    check_options(tree, findings)
    check_paths(tree, findings)
    check_links(tree, findings)
    check_table(tree, findings)
    check_outside(tree, findings, os.path.relpath(os.path.abspath(__file__), os.path.realpath(root)))
    return findings


def self_test(cudaenv):
    """A small tree written to pass, then each kind of finding planted in it."""
    table = subcommands(Tree(".", cudaenv).help([]))
    good = {
        "README.md": "# t\n\n## Commands\n%s\n\nMore: [the layout](docs/a.md#the-layout), "
                     "[top](#commands).\n\n```sh\ncudaenv list --all\ncudaenv kernel add --name x 12.6\n"
                     "cudaenv exec 12.6 -- python --no-such-thing\n```\n\n## End\n"
                     % ", ".join("`%s`" % c for c in table),
        "ARCHITECTURE.md": "# A\n\n| folder | what | may depend on |\n|---|---|---|\n"
                           "| `src/core/` | the model (`pairs`, `plan_use`, `Inventory`) | util |\n"
                           "| `src/util/` | tools | std |\n| `tests/<suite>/` | suites | the binary |\n",
        "docs/a.md": "# A\n\n## The layout\nSee src/core/pairs.cpp and `core/pairs`; `cudaenv trace --strict`.\n",
        "src/core/pairs.cpp": "void plan_use();\n",
        "src/core/inventory.hpp": "struct Inventory {};\n",
        "src/util/u.hpp": "\n",
        "CMakeLists.txt": "\n",
    }
    # (what, file, text in it, planted instead, the finding wanted); no text: appended.
    planted = [
        ("commands", "README.md", "`list`, ", "", "'## Commands' leaves out `list`"),
        ("options", "README.md", "list --all", "list --every", "gives `cudaenv list` the option --every"),
        ("subcommand options", "README.md", "add --name", "add --nome", "gives `cudaenv kernel add` the option --nome"),
        ("a path in backticks", "docs/a.md", "`core/pairs`", "`core/pears`", "names `core/pears`, which is not in"),
        ("a bare path", "docs/a.md", "src/core/pairs.cpp", "src/core/pairs_x.cpp", "names src/core/pairs_x.cpp, "),
        ("a link", "README.md", "docs/a.md#", "docs/b.md#", "links to docs/b.md#the-layout, which is not in"),
        ("an anchor", "README.md", "#the-layout", "#layout", "has no heading #layout"),
        ("an anchor in the same file", "README.md", "(#commands)", "(#command)", "has no heading #command"),
        ("a module", "ARCHITECTURE.md", "`pairs`", "`pears`", "the row of src/core/ names `pears`"),
        ("a type", "ARCHITECTURE.md", "`Inventory`", "`Invent0ry`", "the row of src/core/ names `Invent0ry`"),
        ("a missing row", "ARCHITECTURE.md", "| `src/util/` | tools | std |\n", "",
         "the folder table has no row for src/util/"),
        ("a row without its folder", "ARCHITECTURE.md", None, "| `src/gone/` | gone | util |\n",
         "has a row for src/gone/, which is not in the tree"),
        ("a citation outside", "docs/a.md", None, "As ../shared/docs/x.md says.\n", "cites a file outside"),
    ]

    def write(root, files):
        for rel, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        subprocess.run(["git", "init", "-q", root], check=True)
        subprocess.run(["git", "-C", root, "add", "-A"], check=True)

    ok = True
    with tempfile.TemporaryDirectory() as root:
        write(root, good)
        found = check(root, cudaenv)
        if found:
            print("self-test: the clean tree gave:\n  " + "\n  ".join(found))
            ok = False
    for what, rel, text, instead, want in planted:
        with tempfile.TemporaryDirectory() as root:
            files = dict(good)
            files[rel] = files[rel] + instead if text is None else files[rel].replace(text, instead)
            write(root, files)
            found = check(root, cudaenv)
            if not any(want in f for f in found):
                print("self-test (%s): wanted a finding with %r, got:\n  %s" % (what, want, "\n  ".join(found)))
                ok = False
    print("lint_docs self-test: %s (%d planted findings)" % ("ok" if ok else "FAILED", len(planted)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(lintmain.main(__doc__, check, self_test, "lint_docs", needs_cudaenv=True))
