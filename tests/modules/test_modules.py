"""cudaenv export lmod|tcl against the real engines: Lmod (Debian's lmod) and
Environment Modules (Debian's environment-modules, unpacked with dpkg -x into
a temp prefix because it conflicts with lmod, run with Debian's tclsh).

In a real bash: module avail lists the exported modules; module load of each
pair gives exactly the variables `cudaenv env SPEC --json` gives; a second
pair never joins the first (Tcl: refused by `conflict`; Lmod: one module of
a name, so it replaces it); module swap; module unload restores PATH and
LD_LIBRARY_PATH exactly; re-export rewrites only cudaenv's files."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
from support import Checks, Pairs  # noqa: E402

A = "cuda/11.8.89-cudnn8.9.7"
B = "cuda/12.4.131-cudnn9.1.0"
A0 = "cuda/11.8.89"
SPEC = {A: "11.8.89+8.9.7", B: "12.4.131+9.1.0", A0: "11.8.89+none"}


def environment_modules_prefix(tmp):
    """Debian's environment-modules .deb unpacked into a temp prefix; the .deb
    comes from .ci/deps.sh's cache, else apt-get download (no install)."""
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cudaenv-ci")
    debs = sorted(glob.glob(os.path.join(cache, "environment-modules_*.deb")))
    if not debs:
        os.makedirs(cache, exist_ok=True)
        subprocess.run(["apt-get", "download", "environment-modules"], cwd=cache, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        debs = sorted(glob.glob(os.path.join(cache, "environment-modules_*.deb")))
    prefix = os.path.join(tmp, "environment-modules")
    subprocess.run(["dpkg", "-x", debs[-1], prefix], check=True)
    cmd = glob.glob(os.path.join(prefix, "usr", "lib", "*", "modulecmd.tcl"))
    return cmd[0]


def module_setup(engine, tmp):
    if engine == "lmod":
        return ". /usr/share/lmod/lmod/init/bash\n"
    modulecmd = environment_modules_prefix(tmp)
    return ('module() { eval "$(/usr/bin/tclsh8.6 %s bash "$@")"; }\n' % shell_quote(modulecmd) +
            "export MODULES_COLOR=never\n")


def shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def engine_args():
    """--cudaenv and --engine (lmod or tcl); with the export format that engine reads."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--engine", choices=["lmod", "tcl"], required=True)
    args = ap.parse_args()
    return args, "lmod" if args.engine == "lmod" else "tcl"


def main():
    args, fmt = engine_args()
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-modules-")
    try:
        moddir = os.path.join(p.tmp, "module files")
        os.makedirs(os.path.join(moddir, "cuda"))
        foreign = os.path.join(moddir, "cuda", "site-notes" + (".lua" if fmt == "lmod" else ""))
        with open(foreign, "w") as f:
            f.write("-- a site's own file\n" if fmt == "lmod" else "#%Module1.0\n# a site's own file\n")
        r = p.run("export", fmt, "--all", "-o", moddir, "--default", "12.4+9.1")
        c.eq(r.returncode, 0, "export %s --all: %s" % (fmt, r.stderr))
        ext = ".lua" if fmt == "lmod" else ""
        for m in (A, B, A0, "cuda/12.4.131"):
            c.true(os.path.isfile(os.path.join(moddir, m + ext)), "exported %s%s" % (m, ext))
        first = {m: open(os.path.join(moddir, m + ext), "rb").read() for m in (A, B)}
        # Re-export: the same bytes, the site's file untouched.
        r = p.run("export", fmt, "--all", "-o", moddir, "--default", "12.4+9.1")
        c.eq(r.returncode, 0, "re-export: %s" % r.stderr)
        for m in (A, B):
            c.eq(open(os.path.join(moddir, m + ext), "rb").read(), first[m], "re-export of %s is idempotent" % m)
        c.eq(open(foreign).read()[:5], "-- a " if fmt == "lmod" else "#%Mod", "the site's own file is untouched")
        # A foreign file under an exported name is refused, nothing written.
        other = os.path.join(p.tmp, "other")
        os.makedirs(os.path.join(other, "cuda"))
        with open(os.path.join(other, "cuda", "11.8.89" + ext), "w") as f:
            f.write("site content\n")
        r = p.run("export", fmt, "11.8+none", "12.4", "-o", other)
        c.true(r.returncode != 0 and "was not written by cudaenv" in r.stderr, "foreign file refused: %s" % r.stderr)
        c.eq(sorted(os.listdir(os.path.join(other, "cuda"))), ["11.8.89" + ext], "nothing written beside it")

        base = p.env(MODULEPATH=moddir)
        want = {m: p.env_json(SPEC[m], env=base) for m in SPEC}
        out = os.path.join(p.tmp, "dumps")
        os.makedirs(out)
        dump = "%s -c 'import json,os,sys; json.dump(dict(os.environ), open(sys.argv[1], \"w\"))'" % shell_quote(sys.executable)
        script = module_setup(args.engine, p.tmp) + """
export MODULEPATH=%(moddir)s
d() { %(dump)s %(out)s/"$1".json; }
d base
module avail >%(out)s/avail.txt 2>&1
module load %(A)s; echo "$?" >%(out)s/rc_load_a; d load_a
module load %(B)s 2>%(out)s/second.err; echo "$?" >%(out)s/rc_second; d second
module list >%(out)s/list_second.txt 2>&1
module swap %(FROM)s %(TO)s; echo "$?" >%(out)s/rc_swap; d swapped
module unload cuda; d unloaded
module load %(A0)s; d load_a0
module unload %(A0)s; d unloaded_a0
module load cuda; d load_default
""" % {"moddir": shell_quote(moddir), "dump": dump, "out": shell_quote(out), "A": A, "B": B, "A0": A0,
                   "FROM": A if args.engine == "tcl" else B, "TO": B if args.engine == "tcl" else A}
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=base, capture_output=True, text=True,
                           timeout=600)
        if r.returncode != 0:
            print(r.stdout, r.stderr)

        def env_of(label):
            path = os.path.join(out, label + ".json")
            if not os.path.exists(path):
                c.true(False, "no dump for %s: %s" % (label, r.stderr[-2000:]))
                return {}
            return json.load(open(path))

        def same(label, module):
            got = env_of(label)
            w = want[module]
            for k, v in w["set"].items():
                if k.startswith("__CUDAENV"):
                    continue
                c.eq(got.get(k), v, "%s: %s after loading %s" % (label, k, module))
            for k in w["unset"]:
                c.true(k not in got, "%s: %s unset" % (label, k))

        avail = open(os.path.join(out, "avail.txt")).read()
        for m in (A, B, A0):
            c.true(m in avail, "module avail lists %s:\n%s" % (m, avail))
        c.eq(open(os.path.join(out, "rc_load_a")).read().strip(), "0", "module load A")
        same("load_a", A)
        listing = open(os.path.join(out, "list_second.txt")).read()
        if args.engine == "tcl":
            c.true(open(os.path.join(out, "rc_second")).read().strip() != "0", "conflict refuses a second pair")
            same("second", A)
        else:
            # Lmod keeps one module per name: the second replaces the first.
            same("second", B)
            c.true("11.8.89-cudnn8.9.7" not in listing, "only one cuda module loaded:\n" + listing)
        c.true(listing.count("cuda/") == 1, "module list shows one cuda module:\n" + listing)
        c.eq(open(os.path.join(out, "rc_swap")).read().strip(), "0", "module swap")
        same("swapped", B if args.engine == "tcl" else A)
        b0 = env_of("base")
        for label in ("unloaded", "unloaded_a0"):
            u = env_of(label)
            for k in ("PATH", "LD_LIBRARY_PATH"):
                c.eq(u.get(k), b0.get(k), "%s: %s restored exactly" % (label, k))
            for k in ("CUDA_PATH", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME", "CUDAENV_VERSION"):
                c.true(k not in u, "%s: %s gone" % (label, k))
        same("load_a0", A0)
        same("load_default", B)
    finally:
        p.finish()
    return c.done("modules_" + args.engine)


if __name__ == "__main__":
    sys.exit(main())
