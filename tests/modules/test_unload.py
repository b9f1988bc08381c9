"""`module unload` of an exported module takes back exactly what loading did
(issue 29.1), in the real engine (Lmod, or Environment Modules with tclsh):

- a user's own CUDA_PATH, CUDA_HOME, CUDACXX, CUDNN_PATH, CUDNN_HOME and
  CUDAToolkit_ROOT set before `module load` are there again after `module
  unload` (pushenv), for a pair and for a toolkit alone (which unsets the
  CUDNN_* variables while loaded), and in Lmod after `module swap` too
  (Environment Modules 5.2 loses a pushenv'd variable's first value in a
  swap, its own modulefiles' too: docs/frameworks.md says so);
- LD_LIBRARY_PATH unset, empty or set before: the loaded value has no empty
  entry (issue 29.2), and unloading gives it back (an empty one comes back
  unset: both engines drop an empty list);
- `cudaenv use` in a shell where a cudaenv module is loaded is refused with
  the way out, and `module load` in a shell where `cudaenv use` is active is
  refused by the modulefile; neither changes anything."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
from support import Checks, Pairs, empty_entry  # noqa: E402
from test_modules import engine_args, module_setup, shell_quote  # noqa: E402

A = "cuda/11.8.89-cudnn8.9.7"
B = "cuda/12.4.131-cudnn9.1.0"
A0 = "cuda/11.8.89"
PRIOR = {
    "CUDA_PATH": "/usr/local/cuda",
    "CUDA_HOME": "/usr/local/cuda home",
    "CUDACXX": "/usr/local/cuda/bin/nvcc",
    "CUDNN_PATH": "/opt/my cudnn",
    "CUDNN_HOME": "/opt/my cudnn",
    "CUDAToolkit_ROOT": "/usr/local/cuda",
}
WATCHED = sorted(PRIOR) + ["PATH", "LD_LIBRARY_PATH", "CUDAENV_VERSION"]


def main():
    args, fmt = engine_args()
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-unload-")
    try:
        moddir = os.path.join(p.tmp, "modules")
        r = p.run("export", fmt, "--all", "-o", moddir)
        c.eq(r.returncode, 0, "export %s --all: %s" % (fmt, r.stderr))
        out = os.path.join(p.tmp, "dumps")
        os.makedirs(out)
        dump = "%s -c 'import json,os,sys; json.dump(dict(os.environ), open(sys.argv[1], \"w\"))'" % shell_quote(
            sys.executable)
        for label, ld in (("unset", None), ("empty", ""), ("set", "/usr/lib/mine")):
            env = p.env(MODULEPATH=moddir, **PRIOR)
            if ld is not None:
                env["LD_LIBRARY_PATH"] = ld
            script = module_setup(args.engine, p.tmp) + """
d() { %(dump)s %(out)s/%(label)s-"$1".json; }
d base
module load %(A)s; d load_a
module unload cuda; d unload_a
module load %(A0)s; d load_a0
module unload cuda; d unload_a0
module load %(A)s; module swap cuda %(B)s; d swapped
module unload cuda; d unload_b
""" % {"dump": dump, "out": shell_quote(out), "label": label, "A": A, "A0": A0, "B": B}
            r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env, capture_output=True,
                               text=True, timeout=600)

            def got(step):
                path = os.path.join(out, "%s-%s.json" % (label, step))
                if not os.path.exists(path):
                    c.true(False, "%s: no dump for %s: %s" % (label, step, r.stderr[-2000:]))
                    return {}
                return json.load(open(path))
            base = got("base")
            for step, spec in (("load_a", "11.8.89+8.9.7"), ("load_a0", "11.8.89+none"), ("swapped", "12.4.131+9.1.0")):
                e = got(step)
                want = p.env_json(spec, env=env)
                for k in WATCHED:
                    if k in want["set"]:
                        c.eq(e.get(k), want["set"][k], "%s, %s: %s as `cudaenv env` gives it" % (label, step, k))
                for k in want["unset"]:
                    c.true(k not in e, "%s, %s: %s unset while loaded" % (label, step, k))
                for k in ("PATH", "LD_LIBRARY_PATH"):
                    c.true(not empty_entry(e.get(k, "x")), "%s, %s: no empty entry in %s: %r" % (
                        label, step, k, e.get(k)))
            # Environment Modules 5.2's swap drops the bottom of its pushenv stack (see above).
            for step in ("unload_a", "unload_a0") + (("unload_b",) if args.engine == "lmod" else ()):
                e = got(step)
                for k in WATCHED:
                    if k == "LD_LIBRARY_PATH" and label == "empty":
                        # Both engines drop an empty list: unset, which the loader reads the same.
                        c.true(e.get(k, "") == "", "%s, %s: LD_LIBRARY_PATH empty or unset" % (label, step))
                        continue
                    c.eq(e.get(k), base.get(k), "%s, %s: %s exactly as before the load" % (label, step, k))

        # `cudaenv use` over a loaded cudaenv module, and `module load` over `cudaenv use`.
        env = p.env(MODULEPATH=moddir, **PRIOR)
        script = module_setup(args.engine, p.tmp) + """
eval "$(%(cudaenv)s init bash)"
module load %(A)s
before=$CUDA_PATH
cudaenv use 12.4 2>%(out)s/use.err; echo $? >%(out)s/use.rc
[ "$CUDA_PATH" = "$before" ] && echo same >%(out)s/use.same
module unload cuda
cudaenv use 12.4 2>/dev/null
used=$CUDA_PATH
module load %(A)s >%(out)s/load.err 2>&1; echo $? >%(out)s/load.rc
[ "$CUDA_PATH" = "$used" ] && echo same >%(out)s/load.same
""" % {"cudaenv": shell_quote(p.cudaenv), "A": A, "out": shell_quote(out)}
        r = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=env, capture_output=True, text=True,
                           timeout=300)

        def text(name):
            path = os.path.join(out, name)
            return open(path).read() if os.path.exists(path) else ""
        c.true(text("use.rc").strip() not in ("", "0"), "use over a loaded module fails: %r" % text("use.err"))
        c.true("cudaenv: error: the module %s" % A in text("use.err") and "module unload" in text("use.err"),
               "use says which module and what to do: %r" % text("use.err"))
        c.eq(text("use.same").strip(), "same", "use changed nothing")
        c.true(text("load.rc").strip() not in ("", "0"), "module load while `use` is active fails: %r" % text("load.err"))
        c.true("cudaenv deactivate" in " ".join(text("load.err").split()),
               "the module says what to do: %r" % text("load.err"))
        c.eq(text("load.same").strip(), "same", "module load changed nothing")
    finally:
        p.finish()
    return c.done("modules_unload_" + args.engine)


if __name__ == "__main__":
    sys.exit(main())
