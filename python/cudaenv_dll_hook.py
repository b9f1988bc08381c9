# cudaenv's DLL hook for Python 3.8 and later on Windows (docs/python.md).
#
# `cudaenv setup --python` puts this file and cudaenv_dll_hook.pth, whose one
# line imports it, into an environment's site-packages. Since 3.8, Windows
# Python resolves the DLLs an extension module (.pyd) or ctypes imports
# without PATH: only the module's folder, the system folders and the folders
# given to os.add_dll_directory() are searched. So on `cudaenv use`, which
# puts the pair's DLL folders into CUDAENV_DLL_DIRS (`;`-separated, an entry
# that holds a `;` in double quotes, as in PATH), this module adds each of
# them. `deactivate` removes the variable; where it is unset nothing is done.
#
# It must never stop Python from starting: a bad value or entry is skipped
# with one line on stderr, every error is caught, and it costs well under a
# millisecond (bench/python_hook.sh). Where os.add_dll_directory does not
# exist (Python before 3.8, every other OS) it does nothing at all.
import os

VARIABLE = "CUDAENV_DLL_DIRS"
# A pair has a handful of DLL folders; more is not a value cudaenv wrote, and
# each added folder is searched for every DLL the process loads.
MAX_ENTRIES = 64

# The handles os.add_dll_directory returns, kept for the interpreter's life:
# closing one takes its folder out of the search again.
handles = []


def _say(text):
    try:
        import sys

        if sys.stderr is not None:  # pythonw.exe has none
            sys.stderr.write("cudaenv: " + VARIABLE + ": " + text + "\n")
    except Exception:
        pass


def _shown(entry):
    # repr() escapes line breaks, control characters and lone surrogates,
    # so the message stays one line whatever the entry holds.
    text = repr(entry)
    return text if len(text) <= 200 else text[:200] + "..."


def _entries(value):
    # PATH's rule: ';' separates, a double-quoted part may hold ';', the
    # quotes are not part of the folder. None when a quote is left open.
    out, cur, quoted = [], [], False
    for c in value:
        if c == '"':
            quoted = not quoted
        elif c == ";" and not quoted:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if quoted:
        return None
    out.append("".join(cur))
    return [e for e in out if e]


def _why_bad(entry):
    for c in entry:
        o = ord(c)
        if o < 32 or o == 127:
            return "it holds a control character"
        if 0xD800 <= o <= 0xDFFF:
            return "it is not valid UTF-16"
    if not os.path.isabs(entry):
        return "it is not an absolute folder"
    return None


def add_directories(value, add):
    """Adds each folder of `value` with `add` (os.add_dll_directory), in order."""
    entries = _entries(value)
    if entries is None:
        _say("a double quote is left open; no folder was added")
        return
    if len(entries) > MAX_ENTRIES:
        _say("%d entries (at most %d); no folder was added" % (len(entries), MAX_ENTRIES))
        return
    seen = set()
    for entry in entries:
        why = _why_bad(entry)
        if why:
            _say("skipped %s: %s" % (_shown(entry), why))
            continue
        key = os.path.normcase(entry)
        if key in seen or not os.path.isdir(entry):
            continue  # a folder of the pair that is not there (or twice): nothing to search
        seen.add(key)
        try:
            handles.append(add(entry))
        except Exception as e:  # OSError, and whatever else: never Python's start
            _say("skipped %s: %s" % (_shown(entry), _shown(str(e))))


def _main():
    add = getattr(os, "add_dll_directory", None)
    if add is None:
        return
    value = os.environ.get(VARIABLE)
    if value:
        add_directories(value, add)


try:
    _main()
except Exception as e:
    _say("not used: %s" % _shown(str(e)))
