"""`cudaenv export tcl` for folder names that Lmod's Tcl reader (tcl2lua)
used to break (issue 40 N15): a quote, a backslash, `]]`, a trailing
backslash, CJK. Each module loads exactly in both real engines, Lmod 8.6
and Environment Modules (every variable the one `cudaenv env SPEC --json`
gives). The names neither engine can carry exactly are refused with one
clear line and nothing written: bytes that are not UTF-8 (a store below a
Latin-1 folder), a character beyond U+FFFF, a space at the end, `]===]`.

    python3 test_tcl_names.py --cudaenv BIN"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients"))
from support import Checks, make_toolkit  # noqa: E402
from fixture import make_cudnn  # noqa: E402
from test_modules import module_setup, shell_quote  # noqa: E402

# name, the toolkit folder's name (its cuDNN is "<name>-cudnn-...-archive")
LOADS = [
    ("quote", 'cuda "q"'),
    ("backslash", "cu\\da"),
    ("brackets", "cuda]]x[[y"),
    ("trailing-backslash", "cuda\\"),
    ("cjk", "工具 cuda"),
    ("tcl-syntax", "a$b[c]{d};e"),
]
# name, folder (bytes), what the error says
REFUSED = [
    ("emoji", "cuda 😀".encode(), "a character beyond U+FFFF"),
    ("trailing-space", b"cuda ", "a space at its start or end"),
    ("lua-close", b"a]===]b", "']===]'"),
]
WATCHED = ["CUDA_PATH", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME", "CUDACXX", "CUDAToolkit_ROOT", "CUDAENV_VERSION",
           "PATH", "LD_LIBRARY_PATH"]


def run(cudaenv, env, *args):
    return subprocess.run([cudaenv, *args], env=env, capture_output=True, timeout=120)


def loaded(engine, tmp, moddir, env, module):
    """The WATCHED variables after `module load` in a real bash, as bytes."""
    out = os.path.join(tmp, "vars-" + engine)
    dump = "for v in %s; do printf '%%s\\0%%s\\0' \"$v\" \"${!v-<unset>}\"; done >%s" % (
        " ".join(WATCHED), shell_quote(out))
    script = module_setup(engine, tmp) + "export MODULEPATH=%s\nmodule load %s\n%s\n" % (
        shell_quote(moddir), module, dump)
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env, capture_output=True, timeout=300)
    if not os.path.exists(out):
        return None, r.stdout + r.stderr
    parts = open(out, "rb").read().split(b"\0")
    return dict(zip(parts[0::2], parts[1::2])), r.stdout + r.stderr


def main():
    c = Checks()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cudaenv", required=True)
    cudaenv = os.path.abspath(ap.parse_args().cudaenv)
    tmp = tempfile.mkdtemp(prefix="cudaenv-tclnames-")
    try:
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        base = {"HOME": home, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/local/bin:/usr/bin:/bin"}
        for label, folder in LOADS:
            work = os.path.join(tmp, label)
            env = dict(base, CUDAENV_ROOT=os.path.join(work, "store"))
            toolkit = os.path.join(work, folder)
            cudnn = os.path.join(work, folder + "-cudnn-linux-x86_64-8.9.7.29_cuda11-archive")
            make_toolkit(toolkit, "11.8.89")
            make_cudnn(cudnn, "8.9.7")
            for d in (toolkit, cudnn):
                r = run(cudaenv, env, "add", d)
                c.eq(r.returncode, 0, "%s: add %r: %s" % (label, d, r.stderr))
            want = json.loads(run(cudaenv, env, "env", "11.8", "--json").stdout)["set"]
            moddir = os.path.join(work, "modules")
            r = run(cudaenv, env, "export", "tcl", "11.8", "-o", moddir)
            c.eq(r.returncode, 0, "%s: export tcl: %s" % (label, r.stderr))
            for engine in ("lmod", "tcl"):
                got, log = loaded(engine, work, moddir, env, "cuda/11.8.89-cudnn8.9.7")
                if got is None:
                    c.true(False, "%s: %s loaded nothing: %s" % (label, engine, log[-1500:]))
                    continue
                for k in WATCHED:
                    c.eq(got.get(k.encode()), want[k].encode(), "%s: %s after `module load` in %s" % (label, k, engine))
                print("%-20s %-5s loads exactly" % (label, engine))
        # A store below a Latin-1 folder: its toolkit's path is not UTF-8.
        latin = os.path.join(os.fsencode(tmp), b"caf\xe9")
        env = dict(base, CUDAENV_ROOT=os.fsdecode(os.path.join(latin, b"store")))
        make_toolkit(os.fsdecode(os.path.join(latin, b"store", b"toolkits", b"11.8.89")), "11.8.89")
        cases = [("latin1", env, "bytes that are not UTF-8")]
        for label, folder, why in REFUSED:
            work = os.path.join(tmp, label)
            e = dict(base, CUDAENV_ROOT=os.path.join(work, "store"))
            toolkit = os.path.join(os.fsencode(work), folder)
            make_toolkit(os.fsdecode(toolkit), "11.8.89")
            r = run(cudaenv, e, "add", os.fsdecode(toolkit))
            c.eq(r.returncode, 0, "%s: add: %s" % (label, r.stderr))
            cases.append((label, e, why))
        for label, e, why in cases:
            moddir = os.path.join(tmp, "out-" + label)
            os.makedirs(moddir)
            r = run(cudaenv, e, "export", "tcl", "11.8", "-o", moddir)
            err = r.stderr.decode("utf-8", "replace")
            first = err.split("\n")[0]
            c.eq(r.returncode, 1, "%s: refused: %s" % (label, err))
            c.true(first.startswith("cudaenv: error: cannot export 11.8.89+none as tcl: the toolkit folder")
                   and why in first and "nothing was written" in first, "%s: one clear line: %r" % (label, first))
            c.eq(os.listdir(moddir), [], "%s: nothing written" % label)
            # The refusal is the Tcl format's own: `export lmod` writes the pair.
            r = run(cudaenv, e, "export", "lmod", "11.8", "-o", moddir)
            c.eq(r.returncode, 0, "%s: export lmod writes it: %s" % (label, r.stderr))
            print("%-20s refused for tcl: %s" % (label, first))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return c.done("modules_tcl_names")


if __name__ == "__main__":
    sys.exit(main())
