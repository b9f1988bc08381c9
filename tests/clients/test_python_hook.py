"""The Python DLL hook's module (python/cudaenv_dll_hook.py) on Linux, with
os.add_dll_directory replaced by a recorder: the folders of CUDAENV_DLL_DIRS
are added in order, missing ones are skipped, hostile values (line breaks, a
';' inside a folder name, 10,000 entries, text that is not UTF-16, relative
folders, an open quote, an add that raises) are skipped with one line on
stderr each, nothing happens without the variable, the handles are kept, and
Python always starts. Each case runs a fresh interpreter."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks  # noqa: E402

# Imports the module the way the .pth line does, after putting a recorder in
# os.add_dll_directory; prints what was added and how many handles are kept.
DRIVER = r"""
import json, os, sys
calls = []
fail_on = os.environ.get("T_FAIL_ON")
class Handle:
    def __init__(self, path): self.path = path
    def close(self): calls.append(("closed", self.path))
def record(path):
    if fail_on and path == fail_on:
        raise OSError(87, "The parameter is incorrect")
    if os.environ.get("T_WEIRD_ERROR"):
        raise RuntimeError("not an OSError")
    calls.append(path)
    return Handle(path)
os.add_dll_directory = record
if os.environ.get("T_NO_STDERR"):
    sys.stderr = None
sys.path.insert(0, sys.argv[1])
import cudaenv_dll_hook
value = os.environ.get("T_DIRECT")
if value is not None:
    cudaenv_dll_hook.add_directories(json.loads(value), record)
sys.stdout.write(json.dumps({"calls": calls, "handles": len(cudaenv_dll_hook.handles)}))
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--module", required=True, help="python/cudaenv_dll_hook.py")
    args = ap.parse_args()
    module_dir = os.path.dirname(os.path.abspath(args.module))
    c = Checks()
    tmp = tempfile.mkdtemp(prefix="cudaenv-pyhook-")
    dirs = {}
    for name in ("toolkit bin", "toolkit bin x64", "cudnn & bin", "cu;dnn", "zlib"):
        dirs[name] = os.path.join(tmp, name)
        os.makedirs(dirs[name])
    A, B, C = dirs["toolkit bin"], dirs["toolkit bin x64"], dirs["cudnn & bin"]

    def run(value, **extra):
        env = {k: v for k, v in os.environ.items() if k != "CUDAENV_DLL_DIRS"}
        env.pop("PYTHONPATH", None)
        env.update({k: v for k, v in extra.items()})
        envb = {os.fsencode(k): (v if isinstance(v, bytes) else os.fsencode(v)) for k, v in env.items()}
        if value is not None:
            envb[b"CUDAENV_DLL_DIRS"] = value if isinstance(value, bytes) else os.fsencode(value)
        p = subprocess.run([sys.executable, "-S", "-c", DRIVER, module_dir], env=envb, capture_output=True, timeout=60)
        out = json.loads(p.stdout.decode() or "null") if p.returncode == 0 else None
        err = p.stderr.decode("utf-8", "backslashreplace")
        return p.returncode, out, err

    def lines(err):
        return [line for line in err.split("\n") if line]

    # Nothing without the variable, nothing for an empty one.
    for value in (None, ""):
        rc, out, err = run(value)
        c.eq((rc, out, err), (0, {"calls": [], "handles": 0}, ""), "nothing done for CUDAENV_DLL_DIRS=%r" % value)

    # In order, each once; missing folders and empty entries skipped without a word.
    rc, out, err = run(";".join([A, os.path.join(tmp, "not there"), B, "", C, A]))
    c.eq(out, {"calls": [A, B, C], "handles": 3}, "folders in order, a missing one skipped, handles kept")
    c.eq(err, "", "no message for a missing folder")

    # A ';' inside a folder name, in double quotes as in PATH.
    rc, out, err = run('%s;"%s";%s' % (A, dirs["cu;dnn"], C))
    c.eq(out and out["calls"], [A, dirs["cu;dnn"], C], "a quoted folder holding ';'")
    c.eq(err, "", "no message for a quoted folder")

    def one_line(what, value, want_calls, needle, **extra):
        rc, out, err = run(value, **extra)
        c.eq(rc, 0, "%s: Python started (%s)" % (what, err))
        c.eq(out and out["calls"], want_calls, "%s: what was added" % what)
        got = lines(err)
        c.eq(len(got), 1, "%s: exactly one line on stderr: %r" % (what, err))
        c.true(bool(got) and got[0].startswith("cudaenv: CUDAENV_DLL_DIRS: ") and needle in got[0],
               "%s: the line says why (%r)" % (what, err))

    one_line("a line break inside an entry", "%s;%s\n%s;%s" % (A, B, "/etc", C), [A, C], "control character")
    one_line("a carriage return", "%s;%s\rx" % (A, B), [A], "control character")
    # (Windows holds at most 32767 characters in a variable: short entries.)
    one_line("10,000 entries", ";".join(["/"] * 10000), [], "10000 entries")
    one_line("bytes that are not UTF-8", A.encode() + b";" + B.encode() + b"\xff\xfe;" + C.encode(), [A, C],
             "not valid UTF-16")
    one_line("a relative folder", "%s;toolkit/bin;%s" % (A, C), [A, C], "not an absolute folder")
    one_line("an open quote", '%s;"%s' % (A, C), [], "double quote is left open")
    one_line("an add that fails", ";".join([A, B, C]), [A, C], "The parameter is incorrect", T_FAIL_ON=B)
    # Text that is not UTF-16: a lone surrogate, as Windows' os.environ gives one.
    rc, out, err = run(None, T_DIRECT=json.dumps(A + ";" + B + "\ud800x;" + C))
    c.eq(out and out["calls"], [A, C], "a lone surrogate: skipped")
    c.eq(len(lines(err)), 1, "a lone surrogate: one line (%r)" % err)
    c.true("not valid UTF-16" in err and "\\ud800" in err, "the line shows the surrogate escaped: %r" % err)

    # Nothing stops Python's start: an error that is no OSError, and no stderr at all (pythonw.exe).
    rc, out, err = run(A, T_WEIRD_ERROR="1")
    c.eq(rc, 0, "an unexpected error in the add: Python starts (%s)" % err)
    c.eq(len(lines(err)), 1, "an unexpected error: one line (%r)" % err)
    rc, out, err = run("%s\n" % A, T_NO_STDERR="1")
    c.eq((rc, err), (0, ""), "no stderr (pythonw.exe): silent, and Python starts")

    # Through a real .pth line, the way site imports it: Python starts whatever the value.
    site = os.path.join(tmp, "site")
    os.makedirs(site)
    with open(os.path.join(site, "cudaenv_dll_hook.pth"), "w") as f:
        f.write("import cudaenv_dll_hook\n")
    with open(args.module, "rb") as src, open(os.path.join(site, "cudaenv_dll_hook.py"), "wb") as dst:
        dst.write(src.read())
    for value in (A, "\n;\ud800".encode("utf-8", "surrogatepass"), ";".join(["/"] * 10000)):
        env = dict(os.environ, PYTHONPATH="")
        envb = {os.fsencode(k): os.fsencode(v) for k, v in env.items()}
        envb[b"CUDAENV_DLL_DIRS"] = value if isinstance(value, bytes) else os.fsencode(value)
        p = subprocess.run([sys.executable, "-S", "-c",
                            "import site, sys; site.addsitedir(sys.argv[1]); "
                            "print('started', 'cudaenv_dll_hook' in sys.modules)", site],
                           env=envb, capture_output=True, timeout=60)
        c.eq((p.returncode, p.stdout), (0, b"started True\n"), "the .pth imports the module and Python starts: %r" % p.stderr)
        c.eq(p.stderr, b"", "no os.add_dll_directory (Linux): the module does nothing, says nothing")
    return c.done("python_hook")


if __name__ == "__main__":
    sys.exit(main())
