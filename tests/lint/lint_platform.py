#!/usr/bin/env python3
"""Platform questions are asked of src/platform/ (issue 36.4): outside it no
source tests which OS it is built for.

    python3 lint_platform.py [--root DIR]
    python3 lint_platform.py --self-test

Over every .cpp, .hpp, .h and .c under src/ (but src/platform/) and the
top-level source folders shims/ and audit/, it refuses
  macro     `_WIN32`, `__linux__` or `__APPLE__`, anywhere (an `#ifdef` or a
            `defined(...)`): platform/ turns the build's OS into named values
            and functions (platform.hpp, process.hpp, ...) and picks the
            _posix.cpp or _win32.cpp file of a module
  tested    `is_windows` (or `host_os`) used other than handed on as data: an
            argument of a call, `f(..., platform::is_windows)`, or a value
            stored or returned, `x = platform::is_windows;`, for the pure functions that
            take the OS as an argument so that their tests cover every OS
            (nvidia/driver_support, core/cudalibs, ...). `if`, `?:`, `!`,
            `&&`, `==` on it ask the question outside platform/: ask
            platform/ by name instead (platform::parallel_children,
            platform::has_msvc_toolsets, ...), or add the name there.
Comments are not read. Each finding is one line, FILE:LINE: what. Exit 1 when
any is found."""
import os
import re
import sys
import tempfile

import lintmain

EXTS = (".cpp", ".hpp", ".h", ".c")
FOLDERS = ("src", "shims", "audit")
EXEMPT = os.path.join("src", "platform")
MACRO = re.compile(r"\b(_WIN32|__linux__|__APPLE__)\b")
HOST = re.compile(r"\b(?:platform::)?(is_windows|host_os)\b")
# What may stand before and after the value when it is handed on.
BEFORE = re.compile(r"(?:[(,]|[^=!<>]=)\s*$")
AFTER = re.compile(r"^\s*[,)]")
AFTER_STORED = re.compile(r"^\s*;")


def strip_comments(text):
    """The text with // and /* */ comments and string literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            end = ")" + text[i + 2:k] + '"'
            j = text.find(end, k)
            j = n if k < 0 or j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append('"' + " " * (min(j, n) - i - 1))
            i = j
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):  # not a digit separator (1'000)
            j = i + 1
            while j < n and text[j] != "'" and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append("'" + " " * (min(j, n) - i - 1))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources(root):
    for folder in FOLDERS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, folder)):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, root)
            if rel_dir == EXEMPT or rel_dir.startswith(EXEMPT + os.sep):
                continue
            for f in sorted(files):
                if f.endswith(EXTS):
                    yield os.path.join(rel_dir, f)


def check_text(rel, text):
    findings = []
    code = strip_comments(text)
    line_of = lambda pos: code.count("\n", 0, pos) + 1
    for m in MACRO.finditer(code):
        findings.append("%s:%d: `%s` outside src/platform/: ask platform/ by name (a value or a function there)"
                        % (rel, line_of(m.start()), m.group(1)))
    for m in HOST.finditer(code):
        before, after = code[:m.start()], code[m.end():]
        stored = re.search(r"(?:[^=!<>]=|\breturn)\s*$", before) and AFTER_STORED.match(after)
        handed_on = stored or (BEFORE.search(before) and AFTER.match(after))
        if not handed_on:
            findings.append("%s:%d: `%s` tested outside src/platform/: hand it on as data, or ask platform/ by name "
                            "(tests/lint/lint_platform.py)" % (rel, line_of(m.start()), m.group(1)))
    return findings


def check_tree(root):
    findings = []
    for rel in sources(root):
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
            findings += check_text(rel, f.read())
    return findings


def self_test():
    """Plants violations (and what is allowed) in a scratch tree and checks what is refused."""
    planted = {
        "src/core/a.cpp": "#ifdef _WIN32\nint x;\n#endif\n",
        "src/core/b.cpp": "bool f() { return platform::is_windows ? 1 : 0; }\n",
        "src/core/c.cpp": "void g() {\n    if (!platform::is_windows) return;\n}\n",
        "src/core/d.hpp": "#if defined(__APPLE__) || defined(__linux__)\n#endif\n",
        "src/core/e.cpp": "void h() { if constexpr (platform::host_os == platform::Os::linux) {} }\n",
        "shims/f.c": "#ifndef _WIN32\n#endif\n",
    }
    allowed = {
        "src/platform/platform.hpp": "#ifdef _WIN32\ninline constexpr bool is_windows = true;\n#endif\n",
        "src/core/ok.cpp": ("// _WIN32 in a comment, is_windows too\n"
                            "auto a = judge(x, platform::is_windows);\n"
                            "auto b = judge(\n    platform::is_windows,\n    y);\n"
                            "in.windows = platform::is_windows;\n"
                            "Os f() { return platform::host_os; }\n"
                            "auto c = platform::os_name(platform::host_os);\n"
                            "bool is_windows_platform(const std::string& p);\n"
                            "const char* s = \"_WIN32 is_windows ?\";\n"
                            "const char* r = R\"x(if (is_windows) \"_WIN32\")x\";\n"
                            "int m = 1'000'000;\n"),
    }
    want = {("src/core/a.cpp", 1), ("src/core/b.cpp", 1), ("src/core/c.cpp", 2), ("src/core/d.hpp", 1),
            ("src/core/e.cpp", 1), ("shims/f.c", 1)}
    with tempfile.TemporaryDirectory(prefix="lint-platform-") as root:
        for rel, text in {**planted, **allowed}.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
        findings = check_tree(root)
    got = {(f.split(":")[0].replace(os.sep, "/"), int(f.split(":")[1])) for f in findings}
    ok = True
    for rel, line in sorted(want - got):
        print("self-test: FAIL: %s:%d was not refused" % (rel, line))
        ok = False
    for f in findings:
        rel = f.split(":")[0].replace(os.sep, "/")
        if rel not in planted:
            print("self-test: FAIL: refused what is allowed: " + f)
            ok = False
    if len(findings) < len(planted) + 1:  # d.hpp holds two
        print("self-test: FAIL: %d findings for %d planted" % (len(findings), len(planted) + 1))
        ok = False
    if ok:
        print("self-test: %d planted violations refused, the allowed forms passed" % len(findings))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(lintmain.main(__doc__, check_tree, self_test, "lint_platform"))
