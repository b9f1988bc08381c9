"""Real Jupyter (Debian's jupyter_client and ipykernel): `cudaenv kernel add`
writes a kernelspec that `jupyter kernelspec list` shows; a
jupyter_client.KernelManager starts it and CUDA_PATH inside the kernel is the
pair's; `kernel remove` removes only what cudaenv wrote. Run with the Python
that has jupyter_client (Debian's /usr/bin/python3).

A kernel keeps its pair (issue 29.4): kernel.json names the exact pair and
the non-default store, so after a newer cuDNN is added, and started by a
Jupyter without CUDAENV_ROOT, the kernel still runs with the cuDNN it was
made for. `kernel remove` through a link deletes nothing behind it (28.11)."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import Checks, Pairs, make_cudnn  # noqa: E402
import support  # noqa: E402


def main():
    args = support.paths("cudaenv")
    import jupyter_client
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    c = Checks()
    p = Pairs(args.cudaenv, prefix="cudaenv-jupyter-")
    try:
        data = os.path.join(p.home, ".local", "share")
        env = p.env(XDG_DATA_HOME=data, PATH=os.path.dirname(sys.executable) + ":/usr/bin:/bin",
                    CUDA_PATH="/misleading/system/cuda")
        r = p.run("kernel", "add", "11.8", "--python", sys.executable, "--name", "cuda118", env=env)
        c.eq(r.returncode, 0, "kernel add: %s" % r.stderr)
        r = p.run("kernel", "add", "12.4", env=env)  # default name and python3 from PATH
        c.eq(r.returncode, 0, "kernel add with defaults: %s" % r.stderr)
        kdir = os.path.join(data, "jupyter", "kernels")
        c.true(os.path.isfile(os.path.join(kdir, "cuda118", "kernel.json")), "kernel.json in the XDG data folder")
        spec = json.load(open(os.path.join(kdir, "cuda118", "kernel.json")))
        c.eq(spec["argv"][1:4], ["exec", "11.8.89+8.9.7", "--"], "argv starts with cudaenv exec <exact pair> --")
        c.eq(spec["argv"][0], p.cudaenv, "argv[0] is cudaenv")
        c.eq(spec.get("env"), {"CUDAENV_ROOT": p.root}, "kernel.json names the store CUDAENV_ROOT chose")
        # A newer cuDNN for CUDA 12 arrives: `12.4` now means 9.2.1, the kernel keeps 9.1.0.
        newer = os.path.join(p.tmp, "cudnn-linux-x86_64-9.2.1.18_cuda12-archive")
        make_cudnn(newer, "9.2.1")
        r = p.run("add", newer, env=env)
        c.eq(r.returncode, 0, "add cuDNN 9.2.1: %s" % r.stderr)
        c.eq(p.env_json("12.4", env=env)["set"].get("CUDNN_PATH"), newer, "premise: 12.4 now picks cuDNN 9.2.1")
        r = p.run("kernel", "list", env=env)
        c.true("cuda118" in r.stdout and "cudaenv-12.4.131-cudnn9.1.0" in r.stdout, "kernel list: %s" % r.stdout)

        # jupyter kernelspec list, the real command
        jenv = dict(env)
        r = subprocess.run([sys.executable, "-m", "jupyter_client.kernelspecapp", "list", "--json"], env=jenv,
                           capture_output=True, text=True)
        if r.returncode != 0:
            r = subprocess.run(["jupyter", "kernelspec", "list", "--json"], env=jenv, capture_output=True, text=True)
        c.eq(r.returncode, 0, "jupyter kernelspec list: %s" % r.stderr)
        listed = json.loads(r.stdout or "{}").get("kernelspecs", {})
        c.true("cuda118" in listed and "cudaenv-12.4.131-cudnn9.1.0" in listed, "jupyter kernelspec list shows both: %s" % list(listed))

        # Start each kernel through jupyter_client and ask it for CUDA_PATH and
        # CUDNN_PATH, from an environment without CUDAENV_ROOT (a Jupyter
        # started elsewhere): kernel.json carries it.
        old = dict(os.environ)
        os.environ.clear()
        os.environ.update(jenv)
        del os.environ["CUDAENV_ROOT"]
        try:
            for name, root, cudnn in (("cuda118", p.cuda118, p.cudnn8),
                                      ("cudaenv-12.4.131-cudnn9.1.0", p.cuda124, p.cudnn9)):
                out = os.path.join(p.tmp, name + ".out")
                km = KernelManager(kernel_name=name, kernel_spec_manager=KernelSpecManager())
                km.start_kernel()
                try:
                    kc = km.client()
                    kc.start_channels()
                    kc.wait_for_ready(timeout=120)
                    kc.execute_interactive("import os; open(%r, 'w').write(os.environ.get('CUDA_PATH', '') + '\\n' + "
                                           "os.environ.get('CUDNN_PATH', ''))" % out, timeout=120)
                    kc.stop_channels()
                finally:
                    km.shutdown_kernel(now=True)
                got = open(out).read().split("\n") if os.path.exists(out) else ["", ""]
                c.eq(got[0], root, "CUDA_PATH inside kernel %s" % name)
                c.eq(got[1], cudnn, "CUDNN_PATH inside kernel %s: the cuDNN it was made for" % name)
        finally:
            os.environ.clear()
            os.environ.update(old)

        # remove: only what cudaenv wrote
        extra = os.path.join(kdir, "cuda118", "logo-64x64.png")
        open(extra, "wb").write(b"user's logo")
        r = p.run("kernel", "remove", "cuda118", env=env)
        c.eq(r.returncode, 0, "kernel remove: %s" % r.stderr)
        c.true(not os.path.exists(os.path.join(kdir, "cuda118", "kernel.json")), "kernel.json removed")
        c.true(os.path.exists(extra), "a file cudaenv did not write stays")
        foreign = os.path.join(kdir, "python-mine")
        os.makedirs(foreign)
        json.dump({"argv": ["python3", "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": "mine",
                   "language": "python"}, open(os.path.join(foreign, "kernel.json"), "w"))
        r = p.run("kernel", "remove", "python-mine", env=env)
        c.true(r.returncode != 0 and "not written by cudaenv" in r.stderr, "a foreign kernel is refused: %s" % r.stderr)
        c.true(os.path.exists(os.path.join(foreign, "kernel.json")), "the foreign kernel stays")
        # A kernel folder that is a link to another one: remove deletes nothing through it.
        elsewhere = os.path.join(p.tmp, "elsewhere")
        shutil.copytree(os.path.join(kdir, "cudaenv-12.4.131-cudnn9.1.0"), elsewhere)
        os.symlink(elsewhere, os.path.join(kdir, "linked"))
        r = p.run("kernel", "remove", "linked", env=env)
        c.true(r.returncode != 0 and "is a link" in r.stderr, "remove through a link refused: %s" % r.stderr)
        c.true(os.path.isfile(os.path.join(elsewhere, "kernel.json")), "the link's target keeps its kernel.json")
        for bad in ("../evil", "a/b", "a\\b"):
            r = p.run("kernel", "add", "11.8", "--name", bad, env=env)
            c.true(r.returncode != 0 and "path separator" in r.stderr, "name %r refused: %s" % (bad, r.stderr))
        c.true(not os.path.exists(os.path.join(data, "jupyter", "evil")), "nothing written outside kernels/")
        # --prefix
        pre = os.path.join(p.tmp, "venv prefix")
        r = p.run("kernel", "add", "12.4", "--name", "k", "--python", sys.executable, "--prefix", pre, env=env)
        c.eq(r.returncode, 0, "kernel add --prefix: %s" % r.stderr)
        c.true(os.path.isfile(os.path.join(pre, "share", "jupyter", "kernels", "k", "kernel.json")), "kernel under the prefix")
        print("jupyter_client", jupyter_client.__version__)
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            p.cleanup()
    return c.done("clients_jupyter")


if __name__ == "__main__":
    sys.exit(main())
