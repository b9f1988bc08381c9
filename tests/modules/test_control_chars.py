"""Folder names with control characters, against every export format and its
real consumer (issue 28.1).

A toolkit adopted from a folder named 'a<LF>cudaenv_canary<LF>b/cuda-11.8' (a
cloned repository can hold one; cudaenv_canary is a program on PATH that
leaves a file when it runs) must never reach a file whose consumer turns
the line break into code: Lmod and Environment Modules print values into the
shell code `module` evaluates, CMake writes cache variables into
CMakeCache.txt one per line, env-file readers and GitHub's runner end a value
at a line break. Every format refuses such a pair with one line that names
the folder (escaped), writes nothing, and the real consumer run over the
output folder afterwards runs nothing (the canary file never appears). The
premise is checked too: a modulefile written by hand with such a value does
run the canary in both engines. A
folder with a tab and an ESC is refused by the modulefile and CMake formats
and carried exactly by dotenv (python-dotenv) and github-env (GitHub's rules)."""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
from support import Checks, Pairs, parse_github_env  # noqa: E402
from test_modules import environment_modules_prefix, shell_quote  # noqa: E402

CANARY = "cudaenv_canary"
LF_BASE = "a\n%s\nb" % CANARY
CR_BASE = "c\r%s\rd" % CANARY
TAB_BASE = "t\tab \x1b[31mred"
FORMATS = ("lmod", "tcl", "cmake-presets", "dotenv", "github-env")



def make_canary(tmp):
    """A program named cudaenv_canary in tmp/bin that leaves tmp/RAN; the
    folder to put on PATH and the file it leaves."""
    bindir, ran = os.path.join(tmp, "bin"), os.path.join(tmp, "RAN")
    os.makedirs(bindir)
    with open(os.path.join(bindir, CANARY), "w") as f:
        f.write("#!/bin/sh\necho ran >>%s\n" % shell_quote(ran))
    os.chmod(os.path.join(bindir, CANARY), 0o755)
    return bindir, ran


def load_all(engine, moddir, cwd, tmp, bindir):
    """`module avail` and `module load cuda` with the real engine, in `cwd`,
    with the canary on PATH."""
    if engine == "lmod":
        setup = ". /usr/share/lmod/lmod/init/bash\n"
    else:
        setup = ('module() { eval "$(/usr/bin/tclsh8.6 %s bash "$@")"; }\nexport MODULES_COLOR=never\n' %
                 shell_quote(environment_modules_prefix(tmp)))
    script = setup + "export PATH=%s:$PATH MODULEPATH=%s\nmodule avail 2>&1\nmodule load cuda 2>&1\ntrue\n" % (
        shell_quote(bindir), shell_quote(moddir))
    return subprocess.run(["bash", "--norc", "--noprofile", "-c", script], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def out_path(p, fmt, label):
    folder = os.path.join(p.tmp, "out-%s-%s" % (fmt, label))
    os.makedirs(folder)
    if fmt in ("lmod", "tcl"):
        return folder, folder
    name = {"cmake-presets": "CMakeUserPresets.json", "dotenv": ".env", "github-env": "github_env"}[fmt]
    return folder, os.path.join(folder, name)


def refused(c, p, fmt, spec, label, escaped, canary_dir, env=None):
    folder, target = out_path(p, fmt, label)
    r = p.run("export", fmt, spec, "-o", target, env=env, cwd=canary_dir)
    c.true(r.returncode == 1, "%s %s: refused (rc %d): %s" % (fmt, label, r.returncode, r.stderr))
    first = r.stderr.split("\n")[0]
    c.true(first.startswith("cudaenv: error: cannot export ") and "nothing was written" in first,
           "%s %s: one clear line: %r" % (fmt, label, first))
    c.true(escaped in first, "%s %s: the error shows %r: %r" % (fmt, label, escaped, first))
    c.true("\x1b" not in r.stderr and "\r" not in r.stderr, "%s %s: no raw control byte on stderr" % (fmt, label))
    c.eq(os.listdir(folder), [], "%s %s: nothing written" % (fmt, label))
    return folder


def premise(c, tmp, bindir, ran):
    """A value with a line break in a hand-written modulefile runs the canary
    in the real engine: what the refusal below prevents is real."""
    for engine, name, text in (("lmod", "1.lua", 'setenv("CUDA_PATH", "/x/a\\n%s\\nb/cuda-11.8")\n' % CANARY),
                               ("tcl", "1", '#%%Module1.0\nsetenv CUDA_PATH "/x/a\\n%s\\nb/cuda-11.8"\n' % CANARY)):
        moddir = os.path.join(tmp, "premise-" + engine)
        os.makedirs(os.path.join(moddir, "cuda"))
        with open(os.path.join(moddir, "cuda", name), "w") as f:
            f.write(text)
        load_all(engine, moddir, tmp, tmp, bindir)
        c.true(os.path.exists(ran), "premise: %s runs a line of a value as a command" % engine)
        if os.path.exists(ran):
            os.unlink(ran)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    args = ap.parse_args()
    c = Checks()
    for base, label, escaped in ((LF_BASE, "lf", "a\\n%s\\nb" % CANARY),
                                 (CR_BASE, "cr", "c\\r%s\\rd" % CANARY)):
        p = Pairs(args.cudaenv, base_a=base, prefix="cudaenv-ctl-")
        try:
            bindir, ran = make_canary(p.tmp)
            if label == "lf":
                premise(c, p.tmp, bindir, ran)
            work = os.path.join(p.tmp, "work")  # every consumer runs here
            os.makedirs(work)
            for fmt in FORMATS:
                folder = refused(c, p, fmt, "11.8+8.9.7", label, escaped, work)
                if fmt in ("lmod", "tcl"):
                    load_all(fmt, folder, work, p.tmp, bindir)
            # --all takes the hostile pair too: refused whole, the good pair not written alone.
            folder, _ = out_path(p, "lmod", label + "-all")
            r = p.run("export", "lmod", "--all", "-o", folder)
            c.true(r.returncode == 1 and os.listdir(folder) == [], "lmod --all refused whole: %s" % r.stderr)
            # The other pair (a clean folder) still exports and loads.
            for engine in ("lmod", "tcl"):
                folder, _ = out_path(p, engine, label + "-good")
                r = p.run("export", engine, "12.4", "-o", folder)
                c.eq(r.returncode, 0, "%s of a clean pair: %s" % (engine, r.stderr))
                res = load_all(engine, folder, work, p.tmp, bindir)
                c.true("cuda/12.4.131" in res.stdout, "%s lists the clean module: %s" % (engine, res.stdout[-500:]))
            # A PATH entry of the caller's with a line break: dotenv names PATH.
            env = p.env(PATH="/usr/bin:/bin:/opt/x\ny")
            _, target = out_path(p, "dotenv", label + "-path")
            r = p.run("export", "dotenv", "12.4", "-o", target, env=env)
            c.true(r.returncode == 1 and "the value of PATH" in r.stderr and "/opt/x\\ny" in r.stderr,
                   "dotenv names a caller's PATH entry: %s" % r.stderr)
            c.true(not os.path.exists(ran), "%s: no consumer ran a line of the folder name (canary absent)" % label)
            c.eq(os.listdir(work), [], "%s: nothing written where the consumers ran" % label)
        finally:
            p.cleanup()

    # Tab and ESC: not a line break. Modulefiles and CMake refuse them; env
    # files carry them exactly.
    p = Pairs(args.cudaenv, base_a=TAB_BASE, prefix="cudaenv-ctl-")
    try:
        for fmt in ("lmod", "tcl", "cmake-presets"):
            refused(c, p, fmt, "11.8+8.9.7", "tab", "t\\tab \\x1b[31mred", p.tmp)
        want = {k: v for k, v in p.env_json("11.8.89+8.9.7")["set"].items() if not k.startswith("__CUDAENV")}
        c.true(any("\t" in v for v in want.values()), "the pair's values hold the tab")
        _, target = out_path(p, "dotenv", "tab")
        r = p.run("export", "dotenv", "11.8", "-o", target)
        c.eq(r.returncode, 0, "dotenv carries a tab and ESC: %s" % r.stderr)
        try:
            from dotenv import dotenv_values
            c.eq(dict(dotenv_values(target, interpolate=False)), want, "python-dotenv reads the values back exactly")
        except ImportError:
            c.true(False, "python-dotenv is not installed (.ci/deps.sh installs python3-dotenv)")
        _, target = out_path(p, "github-env", "tab")
        r = p.run("export", "github-env", "11.8", "-o", target)
        c.eq(r.returncode, 0, "github-env carries a tab and ESC: %s" % r.stderr)
        c.eq(parse_github_env(open(target, encoding="utf-8").read()), want, "GitHub's rules read the values back")
    finally:
        p.cleanup()
    return c.done("modules_control_chars")


if __name__ == "__main__":
    sys.exit(main())
