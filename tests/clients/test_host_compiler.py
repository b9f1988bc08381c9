"""Host compiler against the pair's nvcc: real `cudaenv doctor` and
`cudaenv check` runs with fake g++/clang++ scripts on PATH (they print
versions the way GCC and Clang do) say when the compiler nvcc will use is
newer than the pair accepts, with the fix; a NVCC_CCBIN of the user's is
respected and reported as theirs. `check` runs against the project's fake
CUDA runtime and cuDNN (tests/fakes), so its steps really run."""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from support import NVCC, Checks, write  # noqa: E402
import support  # noqa: E402

GCC = '#!/bin/sh\nprintf "%s (Debian {v}.2.0-8) {v}.2.0\\nCopyright (C) 2024 Free Software Foundation, Inc.\\n" ' \
      '"${{0##*/}}"\n'
CLANG = '#!/bin/sh\nprintf "Debian clang version {v}.1.7 (3)\\nTarget: x86_64-pc-linux-gnu\\nThread model: posix\\n"\n'


class Setup:
    """CUDA 12.6.3 (bin/nvcc + the fake libcudart 12) and cuDNN 9.8.0 (the
    fake cuDNN 9) adopted into a temporary store; `cc` holds the compilers."""

    def __init__(self, cudaenv, fakes):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-hostcc-")
        self.cudaenv = os.path.abspath(cudaenv)
        self.cuda = os.path.join(self.tmp, "cuda-12.6")
        write(os.path.join(self.cuda, "bin", "nvcc"), NVCC % {"mm": "12.6", "full": "12.6.3"}, 0o755)
        write(os.path.join(self.cuda, "version.json"), json.dumps({"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}))
        os.makedirs(os.path.join(self.cuda, "lib64"))
        for f in glob.glob(os.path.join(fakes, "cuda12", "libcudart.so.*")):
            shutil.copy(f, os.path.join(self.cuda, "lib64"), follow_symlinks=False)
        self.cudnn = os.path.join(self.tmp, "cudnn", "9.8.0_cuda12")
        os.makedirs(os.path.join(self.cudnn, "lib"))
        for f in glob.glob(os.path.join(fakes, "cudnn9", "libcudnn*")):
            shutil.copy(f, os.path.join(self.cudnn, "lib"), follow_symlinks=False)
        write(os.path.join(self.cudnn, "include", "cudnn_version.h"),
              "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 8\n#define CUDNN_PATCHLEVEL 0\n")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)
        self.root = os.path.join(self.tmp, "store")
        self.cc = os.path.join(self.tmp, "cc")
        os.makedirs(self.cc)
        for d in (self.cuda, self.cudnn):
            r = self.run("add", d)
            if r.returncode != 0:
                raise RuntimeError("cudaenv add %s: %s" % (d, r.stderr))

    def compiler(self, name, text, folder=None):
        path = os.path.join(folder or self.cc, name)
        write(path, text, 0o755)
        return path

    def env(self, **extra):
        # Only the fake compilers on PATH: no system g++-N can make a choice.
        e = {"HOME": self.home, "CUDAENV_ROOT": self.root, "LANG": "C.UTF-8", "PATH": self.cc}
        e.update(extra)
        return e

    def run(self, *args, env=None):
        return subprocess.run([self.cudaenv, *args], env=env or self.env(), cwd=self.tmp, capture_output=True,
                              text=True, timeout=300)

    def doctor(self, env):
        r = self.run("doctor", "--json", env=dict(env, CUDAENV_VERSION="12.6"))
        found = [f for f in json.loads(r.stdout)["findings"] if f["topic"] == "host_compiler"]
        return found[0] if found else None

    def check(self, env):
        r = self.run("check", "12.6", "--json", "--shape", "2x8x12x12x8", "--runs", "5", env=env)
        j = json.loads(r.stdout)
        steps = [s for s in j["pairs"][0]["steps"] if s["step"] == "host_compiler"]
        return j, (steps[0] if steps else None)

    def used(self, env):
        """The environment a shell has after `cudaenv use 12.6` (what `env --json` sets)."""
        r = self.run("env", "12.6", "--json", env=env)
        out = dict(env)
        out.update(json.loads(r.stdout)["set"])
        return out


def main():
    args = support.paths("cudaenv", "fakes")
    c = Checks()
    s = Setup(args.cudaenv, args.fakes)
    try:
        # 1. g++ is GCC 14, CUDA 12.6 accepts GCC up to 13, nothing supported on PATH.
        s.compiler("g++", GCC.format(v=14))
        env = s.env()
        f = s.doctor(env)
        c.true(f is not None, "doctor reports the host compiler")
        c.eq(f and f["status"], "warn", "doctor: GCC 14 for CUDA 12.6 warns")
        c.eq(f and f["summary"], "g++ is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13: nvcc will refuse to compile",
             "doctor's words")
        c.true(f and "Install a compiler CUDA 12.6 accepts (GCC up to 13 or Clang up to 18, e.g. the g++-13 package)"
               in f["advice"], "doctor's fix: install one: %r" % (f and f["advice"]))
        c.eq(f and [f["details"]["from"], f["details"]["supported"], f["details"]["version"],
                    f["details"]["accepts"]["gcc_max"], f["details"]["users_own"]],
             ["PATH", False, 14, 13, False], "doctor --json details")
        human = s.run("doctor", env=dict(env, CUDAENV_VERSION="12.6")).stdout
        c.true("g++ is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13" in human, "doctor's text:\n" + human)

        j, step = s.check(env)
        c.true(step is not None, "check --json has a host_compiler step: %s" % json.dumps(j)[:2000])
        c.eq(step and [step["status"], step["details"]["supported"], step["details"]["cuda"]], ["warn", False, "12.6"],
             "check --json: host_compiler warns")
        c.eq(step and step["summary"], "g++ is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13: nvcc will refuse to compile",
             "check's words")
        c.eq(j["pairs"][0]["status"], "pass", "the libraries still pass: the compiler does not fail the pair")
        r = s.run("check", "12.6", "--shape", "2x8x12x12x8", "--runs", "5", env=env)
        c.true("host_compiler" in r.stdout and "g++ is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13" in r.stdout
               and "advice: " in r.stdout and "Install a compiler CUDA 12.6 accepts" in r.stdout, "check's text:\n" + r.stdout + r.stderr)
        c.eq(r.returncode, 0, "check still exits 0")

        # 2. A supported g++-13 on PATH: doctor names the fix (`use` picks it); after `use`, all is well.
        g13 = s.compiler("g++-13", GCC.format(v=13))
        f = s.doctor(env)
        c.true(f and f["advice"].startswith("Run `cudaenv use 12.6")
               and "it sets NVCC_CCBIN and CUDAHOSTCXX to " + g13 in f["advice"],
               "doctor: use picks g++-13: %r" % (f and f["advice"]))
        c.eq(f and f["details"].get("suggested"), g13, "doctor --json: suggested")
        used = s.used(env)
        c.eq(used.get("NVCC_CCBIN"), g13, "use sets NVCC_CCBIN to g++-13")
        f = s.doctor(used)
        c.eq(f and [f["status"], f["details"]["from"], f["details"]["users_own"], f["details"]["compiler"]],
             ["ok", "NVCC_CCBIN", False, g13], "after use: NVCC_CCBIN set by cudaenv, accepted: %r" % f)
        c.true(f and "(NVCC_CCBIN, set by cudaenv) is GCC 13; CUDA 12.6's nvcc accepts it" in f["summary"],
               "doctor says cudaenv set it: %r" % (f and f["summary"]))
        j, step = s.check(env)
        c.eq(step and [step["status"], step["details"]["from"], step["details"]["compiler"]], ["ok", "NVCC_CCBIN", g13],
             "check: the pair's environment carries cudaenv's g++-13: %r" % step)

        # 3. The user's own NVCC_CCBIN (too new) is respected and reported as theirs.
        mine = os.path.join(s.tmp, "my compilers")
        my_gxx = s.compiler("g++", GCC.format(v=14), folder=mine)
        own = s.env(NVCC_CCBIN=my_gxx)
        c.true("NVCC_CCBIN" not in s.run("env", "12.6", "--json", env=own).stdout.split('"unset"')[0],
               "use leaves the user's NVCC_CCBIN alone")
        for name, got in (("doctor", s.doctor(own)), ("check", s.check(own)[1])):
            c.eq(got and [got["status"], got["details"]["from"], got["details"]["users_own"], got["details"]["compiler"]],
                 ["warn", "NVCC_CCBIN", True, my_gxx], "%s: the user's NVCC_CCBIN is checked: %r" % (name, got))
            c.true(got and got["summary"].startswith("NVCC_CCBIN=%s is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13 "
                                                     "(your own value)" % my_gxx),
                   "%s says it is the user's: %r" % (name, got and got["summary"]))
            c.true(got and got["advice"].startswith("Your NVCC_CCBIN is kept as you set it: point it at a compiler "
                                                    "CUDA 12.6 accepts (%s)" % g13),
                   "%s's fix keeps the user's value: %r" % (name, got and got["advice"]))
        # A folder as NVCC_CCBIN (nvcc's -ccbin DIR) that holds a supported g++: fine, and still theirs.
        s.compiler("g++", GCC.format(v=12), folder=os.path.join(s.tmp, "gcc12"))
        f = s.doctor(s.env(NVCC_CCBIN=os.path.join(s.tmp, "gcc12")))
        c.eq(f and [f["status"], f["details"]["users_own"], f["details"]["version"]], ["ok", True, 12],
             "NVCC_CCBIN=DIR: its g++ is checked: %r" % f)

        # 4. Clang as CUDAHOSTCXX (CMake's), too new for CUDA 12.6 (Clang up to 18).
        clang = s.compiler("clang++-19", CLANG.format(v=19))
        f = s.doctor(s.env(CUDAHOSTCXX="clang++-19"))
        c.eq(f and [f["status"], f["details"]["family"], f["details"]["compiler"], f["details"]["from"]],
             ["warn", "clang", clang, "CUDAHOSTCXX"], "CUDAHOSTCXX=clang++-19 found on PATH and checked: %r" % f)
        c.true(f and "is Clang 19; CUDA 12.6's nvcc accepts Clang up to 18" in f["summary"],
               "Clang's words: %r" % (f and f["summary"]))

        # 5. No compiler at all.
        for n in os.listdir(s.cc):
            os.unlink(os.path.join(s.cc, n))
        f = s.doctor(s.env())
        c.eq(f and [f["status"], f["details"]["found"]], ["warn", False], "no g++: warned: %r" % f)
        c.true(f and f["summary"].startswith("no g++ on PATH"), "no g++ words: %r" % (f and f["summary"]))
    finally:
        if not os.environ.get("CUDAENV_TEST_KEEP"):
            shutil.rmtree(s.tmp, ignore_errors=True)
    return c.done("clients_host_compiler")


if __name__ == "__main__":
    sys.exit(main())
