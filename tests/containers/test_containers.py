#!/usr/bin/env python3
"""cudaenv and containers, against real Podman (runc) and the CDI reference
library (docs/containers.md):

  Cdi        `export cdi`: each pair a device that Podman accepts, mounting the
             pair read-only at the same paths with the variables exactly as
             `cudaenv env --json` plans them in a fresh container; the
             `current` alias; beside NVIDIA's own spec; the default folders;
             validated by the CDI library.
  Hostile    folder names with spaces, quotes, a newline, ',' and ':', an
             operating-system folder: exact, or refused with one clear line
             and nothing written.
  ReadOnly   cudaenv inside a container on a store mounted read-only: check
             (Debian's real CUDA 11.8 runtime, no driver), list and trace
             work and write nothing into it.
  Dockerfile `export dockerfile` built twice from one lock and one mirror:
             the same layers; the image runs `cudaenv current` and the locked
             nvcc.

Usage: test_containers.py --cudaenv BIN [--trace-loader PROG] GROUP
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # the imported helpers leave no __pycache__ in the source tree
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "clients"))
sys.path.insert(0, os.path.join(HERE, "..", "install"))
import engine  # noqa: E402
from support import make_toolkit  # noqa: E402 (tests/clients)
from fixture import WEIRD_A, WEIRD_B, make_cudnn  # noqa: E402 (tests/integration, through support)

ARGS = None
OCI_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
KIND = "cudaenv.dev/pair"
# Set by the host's compiler (`use` picks a g++ for nvcc): not the pair's, never in a spec.
HOST_ONLY = ("NVCC_CCBIN", "CUDAHOSTCXX")
W = {}  # what setUpModule made: the Podman, its images, the work folder


def setUpModule():
    work = engine.new_work("cudaenv-containers-")
    engine.private_system_folders(work)
    W["work"] = work
    W["podman"] = engine.Podman(os.path.join(work, "podman"))


def tearDownModule():
    if os.environ.get("CUDAENV_TEST_KEEP"):
        print("kept", W["work"])
        return
    W["podman"]("rmi", "--all", "--force", check=False)
    shutil.rmtree(W["work"], ignore_errors=True)


def image(kind):
    key = "image-" + kind
    if key not in W:
        W[key] = W["podman"].import_rootfs(kind, "cudaenv-test-" + kind)
    return W[key]


def read(path, mode="rb"):
    with open(path, mode) as f:
        return f.read()


def tree(root):
    """Every path below `root` with its type and, for a file, its bytes' hash."""
    out = {}
    for base, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            p = os.path.join(base, name)
            rel = os.path.relpath(p, root)
            if os.path.islink(p):
                out[rel] = "L" + os.readlink(p)
            elif os.path.isfile(p):
                out[rel] = "F" + hashlib.sha256(read(p)).hexdigest()
            else:
                out[rel] = "D"
    return out


class Store:
    """A temporary store with pairs adopted from folders the test makes."""

    def __init__(self, name):
        self.tmp = os.path.join(W["work"], name)
        os.makedirs(self.tmp)
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)
        self.root = os.path.join(self.tmp, "store")

    def env(self, **extra):
        e = {"HOME": self.home, "CUDAENV_ROOT": self.root, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
             "PATH": "/usr/local/bin:/usr/bin:/bin", "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
             "CUDAENV_SYSTEM_ROOT": os.path.join(self.tmp, "no-system-store")}
        e.update(extra)
        return e

    def cli(self, *args, ok=True, env=None, cwd=None):
        r = subprocess.run([ARGS.cudaenv, *args], env=env or self.env(), cwd=cwd or self.tmp, capture_output=True,
                           text=True)
        if ok and r.returncode != 0:
            raise AssertionError("cudaenv %s failed (%d):\n%s%s" % (" ".join(args), r.returncode, r.stdout, r.stderr))
        return r

    def add(self, folder):
        self.cli("add", folder)

    def planned(self, spec):
        """What `cudaenv env SPEC --json` sets in a fresh container's environment (OCI's PATH, nothing
        else), less cudaenv's own bookkeeping and the host's compiler."""
        env = self.env(PATH=OCI_PATH)
        del env["LANG"], env["LC_ALL"]
        got = json.loads(self.cli("env", spec, "--json", env=env).stdout)["set"]
        return {k: v for k, v in got.items() if not k.startswith("__CUDAENV") and k not in HOST_ONLY}


def read_spec(path):
    """A spec cudaenv wrote: comment lines, then JSON (which YAML reads too)."""
    return json.loads("".join(l for l in read(path, "r").splitlines(True) if not l.startswith("#")))


def toolkit(root, full):
    make_toolkit(root, full)
    return root


def cudnn(root, version):
    make_cudnn(root, version)
    return root


class Base(unittest.TestCase):
    maxDiff = None

    def one_line_error(self, r, *parts):
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stderr.splitlines()
        self.assertTrue(lines and lines[0].startswith("cudaenv: error: "), r.stderr)
        self.assertFalse([l for l in lines[1:] if l.startswith("cudaenv: error")], r.stderr)
        for part in parts:
            self.assertIn(part, lines[0])

    def container_env(self, devices=(), volumes=(), env=(), img=None):
        return engine.environ_of(W["podman"], img or image("busybox"), devices=devices, volumes=volumes, env=env)

    def assert_env(self, got, want):
        for k, v in want.items():
            self.assertEqual(got.get(k), v, "%s in the container" % k)
        cuda = {k for k in got if k.startswith(("CUDA", "CUDNN", "LD_LIBRARY_PATH"))}
        self.assertEqual(cuda - set(want), set(), "variables the pair does not set")


class Cdi(Base):
    @classmethod
    def setUpClass(cls):
        s = cls.s = Store("cdi")
        cls.cuda118 = toolkit(os.path.join(s.tmp, WEIRD_A, "cuda-11.8"), "11.8.89")
        cls.cudnn8 = cudnn(os.path.join(s.tmp, WEIRD_A, "cudnn-linux-x86_64-8.9.7.29_cuda11-archive"), "8.9.7")
        cls.cuda124 = toolkit(os.path.join(s.tmp, WEIRD_B, "cuda 12.4"), "12.4.131")
        for f in (cls.cuda118, cls.cudnn8, cls.cuda124):
            s.add(f)
        s.cli("global", "11.8")
        cls.out = "/run/cdi"  # /var/run/cdi: Podman reads it (private to this test's namespace)
        cls.export = s.cli("export", "cdi", "--all", "-o", cls.out)
        cls.spec_file = os.path.join(cls.out, "cudaenv.dev-pair.yaml")

    def test_export_says_what_it_wrote(self):
        self.assertEqual(self.export.stdout, "")
        self.assertIn("cudaenv: wrote CDI devices cudaenv.dev/pair=", self.export.stderr)
        self.assertIn("11.8.89_8.9.7", self.export.stderr)
        text = read(self.spec_file, "r")
        self.assertTrue(text.startswith("# cudaenv export: written by `cudaenv export cdi`"))
        self.assertIn("#   --device cudaenv.dev/pair=current is 11.8.89_8.9.7", text)

    def test_validated_by_the_cdi_library(self):
        validator = engine.cdi_validator(W["work"])
        rc, err, out = engine.validate_cdi(validator, self.out, KIND + "=11.8.89_8.9.7")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(sorted(out["devices"]),
                         sorted(KIND + "=" + n for n in ("11.8.89_8.9.7", "12.4.131_none", "11.8.89_none", "current")))
        want = self.s.planned("11.8.89+8.9.7")
        env = dict(e.split("=", 1) for e in out["env"])
        self.assertEqual({k: env[k] for k in want}, want)
        self.assertEqual(sorted(m["source"] for m in out["mounts"]), sorted([self.cuda118, self.cudnn8]))
        for m in out["mounts"]:
            self.assertEqual(m["source"], m["destination"])
            self.assertIn("ro", m["options"])

    def test_the_pair_at_the_same_paths_read_only_with_its_variables(self):
        dev = KIND + "=11.8.89_8.9.7"
        self.assert_env(self.container_env([dev]), self.s.planned("11.8.89+8.9.7"))
        podman, img = W["podman"], image("busybox")
        for folder in (self.cuda118, self.cudnn8):
            # every file, link and byte, at the same path
            listing = podman.run(img, "/bin/sh", "-c", 'cd "$1" && find . | sort', "sh", folder, devices=[dev])
            want = sorted(["."] + ["./" + p for p in tree(folder)])
            self.assertEqual(listing.stdout.decode().splitlines(), want)
            header = os.path.join(folder, "include", sorted(os.listdir(os.path.join(folder, "include")))[0])
            r = podman.run(img, "/bin/cat", header, devices=[dev])
            self.assertEqual(r.stdout, read(header))
            r = podman.run(img, "/bin/touch", os.path.join(folder, "written"), devices=[dev], check=False)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn(b"Read-only file system", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(folder, "written")))
        r = podman.run(img, os.path.join(self.cuda118, "bin", "nvcc"), "--version", devices=[dev])
        self.assertIn(b"release 11.8, V11.8.89", r.stdout)

    def test_a_toolkit_alone_and_the_other_pair(self):
        self.assert_env(self.container_env([KIND + "=12.4.131_none"]), self.s.planned("12.4.131+none"))
        self.assert_env(self.container_env([KIND + "=11.8.89_none"]), self.s.planned("11.8.89+none"))

    def test_current_is_the_active_pair(self):
        self.assert_env(self.container_env([KIND + "=current"]), self.s.planned("11.8.89+8.9.7"))

    def test_without_the_device_the_container_sees_nothing_of_the_store(self):
        env = self.container_env()
        self.assertEqual({k for k in env if "CUDA" in k or "CUDNN" in k}, set())
        self.assertEqual(env["PATH"], OCI_PATH)
        r = W["podman"].run(image("busybox"), "/bin/ls", "-d", self.cuda118, self.cudnn8, self.s.root, self.s.tmp,
                            check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(r.stdout, b"")

    def test_beside_nvidia_spec(self):
        # NVIDIA's Container Toolkit writes its own spec (nvidia-ctk cdi generate);
        # this one stands in for it: a driver library and NVIDIA's variable.
        driver = os.path.join(self.s.tmp, "libcuda.so.1")
        with open(driver, "w") as f:
            f.write("driver stand-in\n")
        os.makedirs("/etc/cdi", exist_ok=True)
        nvidia = {"cdiVersion": "0.5.0", "kind": "nvidia.com/gpu", "devices": [{"name": "all", "containerEdits": {
            "env": ["NVIDIA_VISIBLE_DEVICES=void"],
            "mounts": [{"hostPath": driver, "containerPath": "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                        "options": ["ro", "nosuid", "nodev", "bind"]}]}}]}
        nvidia_file = "/etc/cdi/nvidia.yaml"
        with open(nvidia_file, "w") as f:
            json.dump(nvidia, f)
        before = read(nvidia_file)
        try:
            self.s.cli("export", "cdi", "11.8+8.9", "-o", "/etc/cdi")
            self.assertEqual(read(nvidia_file), before)
            devs = [KIND + "=11.8.89_8.9.7", "nvidia.com/gpu=all"]
            env = self.container_env(devs)
            self.assert_env(env, self.s.planned("11.8.89+8.9.7"))
            self.assertEqual(env["NVIDIA_VISIBLE_DEVICES"], "void")
            r = W["podman"].run(image("busybox"), "/bin/cat", "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
                                os.path.join(self.cuda118, "version.json"), devices=devs)
            self.assertTrue(r.stdout.startswith(b"driver stand-in\n"))
        finally:
            os.remove(nvidia_file)
            os.remove("/etc/cdi/cudaenv.dev-pair.yaml")

    def test_default_folders(self):
        s = self.s
        # a user's own store: the user's CDI folder
        r = s.cli("export", "cdi", "12.4")
        user_dir = os.path.join(s.home, ".config", "cdi")
        self.assertTrue(os.path.isfile(os.path.join(user_dir, "cudaenv.dev-pair.yaml")), r.stderr)
        self.assertIn("into " + os.path.join(user_dir, "cudaenv.dev-pair.yaml"), r.stderr)
        self.assertIn("rootless Docker reads it", r.stderr)
        # or the first folder of containers.conf's cdi_spec_dirs the user can write
        conf = os.path.join(s.tmp, "containers.conf")
        named = os.path.join(s.tmp, "cdi-of-podman")
        with open(conf, "w") as f:
            f.write('[engine]\ncdi_spec_dirs = ["/no-such-folder/cdi", "%s"]\n' % named)
        r = s.cli("export", "cdi", "12.4", env=s.env(CONTAINERS_CONF=conf))
        self.assertTrue(os.path.isfile(os.path.join(named, "cudaenv.dev-pair.yaml")), r.stderr)
        self.assertIn("containers.conf names it in cdi_spec_dirs", r.stderr)
        # the system store's pairs: /etc/cdi (this namespace's)
        system = os.path.join(s.tmp, "system-store")
        senv = s.env(CUDAENV_SYSTEM_ROOT=system)
        s.cli("add", "--system", self.cuda124, env=senv)
        r = s.cli("export", "cdi", "--system", "--all", env=senv)
        self.assertIn("into /etc/cdi/cudaenv.dev-pair.yaml", r.stderr)
        try:
            devices = read_spec("/etc/cdi/cudaenv.dev-pair.yaml")
            self.assertEqual([d["name"] for d in devices["devices"]], ["12.4.131_none"])
            self.assert_env(self.container_env([KIND + "=12.4.131_none"]), s.planned("12.4.131+none"))
        finally:
            os.remove("/etc/cdi/cudaenv.dev-pair.yaml")

    def test_a_file_cudaenv_did_not_write_is_kept(self):
        folder = os.path.join(self.s.tmp, "foreign")
        os.makedirs(folder)
        mine = os.path.join(folder, "cudaenv.dev-pair.yaml")
        with open(mine, "w") as f:
            f.write("# the admin's own\n")
        r = self.s.cli("export", "cdi", "11.8", "-o", folder, ok=False)
        self.one_line_error(r, "exists and was not written by cudaenv")
        self.assertEqual(read(mine, "r"), "# the admin's own\n")
        r = self.s.cli("export", "cdi", "11.8", "-o", mine, ok=False)
        self.one_line_error(r, "is not a folder")

    def test_two_installs_of_one_version_have_names_with_a_colon(self):
        s = Store("origins")
        a = toolkit(os.path.join(s.tmp, "a", "cuda-12.6"), "12.6.3")
        b = toolkit(os.path.join(s.tmp, "b", "opt-cuda"), "12.6.3")
        s.add(a)
        s.add(b)
        specs = [line.split()[0].lstrip("*") for line in s.cli("list").stdout.splitlines()[1:] if line.strip()]
        out = os.path.join(s.tmp, "cdi")
        s.cli("export", "cdi", "--all", "-o", out)
        names = sorted(n for n in (d.split("=", 1)[1] for d in engine.validate_cdi(
            engine.cdi_validator(W["work"]), out)[2]["devices"]))
        self.assertEqual(names, sorted(spec.replace("+", "_").replace("@", ":") for spec in specs if spec))
        self.assertTrue(any(":" in n for n in names), names)
        shutil.copy(os.path.join(out, "cudaenv.dev-pair.yaml"), "/run/cdi/origins.yaml")
        try:
            with open("/run/cdi/origins.yaml", "r+") as f:  # its own kind, beside the class's spec
                text = f.read().replace(KIND, "cudaenv.dev/origins")
                f.seek(0)
                f.truncate()
                f.write(text)
            for spec in specs:
                got = self.container_env(["cudaenv.dev/origins=" + spec.replace("+", "_").replace("@", ":")])
                self.assertEqual(got["CUDA_PATH"], s.planned(spec)["CUDA_PATH"])
        finally:
            os.remove("/run/cdi/origins.yaml")


class Hostile(Base):
    """Folder names that are separators somewhere in CDI, OCI, PATH or YAML."""

    def pair_in(self, name, cuda="11.8.89"):
        s = Store("hostile-%d" % len(os.listdir(W["work"])))
        folder = toolkit(os.path.join(s.tmp, name), cuda)
        s.add(folder)
        return s, folder

    def exact(self, name):
        s, folder = self.pair_in(name)
        out = os.path.join(s.tmp, "cdi")
        s.cli("export", "cdi", "11.8", "-o", out)
        rc, err, got = engine.validate_cdi(engine.cdi_validator(W["work"]), out, KIND + "=11.8.89_none")
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual([m["source"] for m in got["mounts"]], [folder])
        shutil.copy(os.path.join(out, "cudaenv.dev-pair.yaml"), "/run/cdi/hostile.yaml")
        try:
            with open("/run/cdi/hostile.yaml", "r+") as f:
                text = f.read().replace(KIND, "cudaenv.dev/hostile")
                f.seek(0)
                f.truncate()
                f.write(text)
            dev = "cudaenv.dev/hostile=11.8.89_none"
            self.assert_env(self.container_env([dev]), s.planned("11.8.89+none"))
            r = W["podman"].run(image("busybox"), "/bin/cat", os.path.join(folder, "version.json"), devices=[dev])
            self.assertEqual(r.stdout, read(os.path.join(folder, "version.json")))
        finally:
            os.remove("/run/cdi/hostile.yaml")

    def test_spaces_and_quotes(self):
        self.exact("cuda 11.8 \"quoted\" 'single' $HOME `tick` #hash")

    def test_a_comma(self):
        self.exact("cuda,11.8,ro,rw")

    def test_a_newline(self):
        self.exact("cuda\n11.8")

    def test_yaml_and_json_syntax(self):
        self.exact("- {a, [b]} & *c !d %e @f \\u0041 --- #x")

    def test_a_colon_is_refused(self):
        s, folder = self.pair_in("cuda:11.8")
        out = os.path.join(s.tmp, "cdi")
        r = s.cli("export", "cdi", "11.8", "-o", out, ok=False)
        self.one_line_error(r, "cannot export 11.8.89+none as a CDI device", "has a ':', which separates the entries of")
        self.assertIn("nothing was written", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "cudaenv.dev-pair.yaml")))

    def test_an_operating_system_folder_is_refused(self):
        # Debian's own CUDA 11.8 runtime (libcudart11.0) lives in /usr/lib/x86_64-linux-gnu.
        system = "/usr/lib/x86_64-linux-gnu"
        if not os.path.exists(os.path.join(system, "libcudart.so.11.0")):
            self.skipTest("no libcudart11.0 (Debian non-free) here")
        s = Store("os-folder")
        s.add(system)
        out = os.path.join(s.tmp, "cdi")
        r = s.cli("export", "cdi", "11.8", "-o", out, ok=False)
        self.one_line_error(r, "its folder '%s' is the operating system's, which a container keeps its own of" % system)
        self.assertFalse(os.path.exists(out))


class ReadOnly(Base):
    """The store mounted read-only in a container with glibc (Debian minbase)."""

    @classmethod
    def setUpClass(cls):
        src = os.environ.get("CUDAENV_TEST_CUDART11", "/usr/lib/x86_64-linux-gnu/libcudart.so.11.8.89")
        if not os.path.isfile(src):
            raise unittest.SkipTest("%s not found (libcudart11.0 from Debian non-free)" % src)
        if os.path.exists("/proc/driver/nvidia/version"):
            raise unittest.SkipTest("this machine has an NVIDIA driver; the case checks the no-driver report")
        s = cls.s = Store("readonly")
        cls.cudart = os.path.join(s.tmp, "cudart-11.8")
        os.makedirs(cls.cudart)
        shutil.copy(src, os.path.join(cls.cudart, "libcudart.so.11.8.89"))
        os.symlink("libcudart.so.11.8.89", os.path.join(cls.cudart, "libcudart.so.11.0"))
        s.add(cls.cudart)
        s.cli("export", "cdi", "11.8", "-o", "/run/cdi")
        cls.bin = os.path.dirname(os.path.abspath(ARGS.cudaenv))
        cls.digest = tree(s.root)

    def inside(self, *argv, devices=None, extra=()):
        s = self.s
        vols = ["%s:%s:ro" % (s.root, s.root), "%s:%s:ro" % (self.bin, self.bin)] + list(extra)
        env = ["CUDAENV_ROOT=%s" % s.root, "HOME=/root"]
        return W["podman"].run(image("minbase"), os.path.join(self.bin, "cudaenv"), *argv,
                               devices=devices if devices is not None else [KIND + "=11.8.89_none"],
                               volumes=vols, env=env, check=False)

    def tearDown(self):
        self.assertEqual(tree(self.s.root), self.digest, "the read-only store was changed")

    def test_check_reports_the_missing_driver_and_keeps_no_record(self):
        r = self.inside("check", "11.8", "--json")
        self.assertEqual(r.returncode, 1, r.stderr)
        result = json.loads(r.stdout)
        steps = {s["step"]: s for s in result["pairs"][0]["steps"]}
        self.assertEqual(result["pairs"][0]["spec"], "11.8.89+none")
        self.assertEqual(steps["files"]["status"], "ok")
        self.assertEqual(steps["load"]["status"], "ok")
        self.assertIn("cudaErrorInsufficientDriver", steps["versions"]["summary"])
        self.assertEqual(steps["gpu"]["status"], "fail")
        self.assertIn("no NVIDIA driver on this machine", steps["gpu"]["summary"])
        self.assertIn("is read-only here: this check's result was not kept", r.stderr.decode())

    def test_check_of_a_read_only_system_store_keeps_the_record_in_the_users_own(self):
        # The container's own user store (/root/cudaenv) is writable; the system store is not.
        s = self.s
        vols = ["%s:%s:ro" % (s.root, s.root), "%s:%s:ro" % (self.bin, self.bin)]
        script = '"$1" check 11.8 --json >/dev/null 2>"$2"; cat "$2" /root/cudaenv/checks.toml'
        r = W["podman"].run(image("minbase"), "/bin/sh", "-c", script, "sh", os.path.join(self.bin, "cudaenv"),
                            "/tmp/err", devices=[KIND + "=11.8.89_none"], volumes=vols,
                            env=["CUDAENV_SYSTEM_ROOT=%s" % s.root, "CUDAENV_ROOT=/root/cudaenv", "HOME=/root"])
        out = r.stdout.decode()
        self.assertNotIn("was not kept", out)
        self.assertIn("spec = '11.8.89+none'", out)
        self.assertIn(self.cudart, out)

    def test_list_and_current(self):
        r = self.inside("list")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"11.8.89+none", r.stdout)
        self.assertIn(self.cudart.encode(), r.stdout)
        r = self.inside("current")
        self.assertEqual(r.stdout.decode().split()[0], "11.8.89+none")  # CUDAENV_VERSION, from the device

    def test_trace(self):
        if not ARGS.trace_loader:
            self.skipTest("no trace_loader given")
        loader = os.path.abspath(ARGS.trace_loader)
        d = os.path.dirname(loader)
        r = self.inside("trace", "11.8", "--json", "--", loader, "libcudart.so.11.0", extra=["%s:%s:ro" % (d, d)])
        self.assertEqual(r.returncode, 0, r.stderr)
        out = json.loads(r.stdout[r.stdout.index(b"{"):])
        libs = {lib["name"]: lib for lib in out["libraries"]}
        self.assertEqual(libs["libcudart.so.11.0"]["origin"], "pair")


class Dockerfile(Base):
    @classmethod
    def setUpClass(cls):
        import redist  # tests/install: a mirror in NVIDIA's layout
        s = cls.s = Store("dockerfile")
        cls.mirror = redist.build(os.path.join(s.tmp, "mirror"), cuda=("12.6.3",), cudnn=("9.8.0",))
        cls.project = os.path.join(s.tmp, "proj")
        os.makedirs(cls.project)
        with open(os.path.join(cls.project, ".cudaenv"), "w") as f:
            f.write("12.6+9.8\n")
        s.cli("lock", "--mirror", cls.mirror, "--platform", "linux-x86_64", cwd=cls.project)
        cls.export = s.cli("export", "dockerfile", "--base", image("minbase"), cwd=cls.project)
        cls.context = os.path.join(cls.project, "cudaenv-image")

    def build(self, tag):
        podman = W["podman"]
        podman("build", "--no-cache", "--timestamp", "0", "--build-context", "mirror=" + self.mirror, "-t", tag,
               self.context, timeout=600)
        inspect = json.loads(podman("image", "inspect", tag).stdout)[0]
        return inspect["Id"], inspect["RootFS"]["Layers"]

    def test_two_builds_give_the_same_layers_and_the_image_has_the_pair(self):
        self.assertIn("cudaenv: wrote a Dockerfile for 12.6.3+9.8.0", self.export.stderr)
        id1, layers1 = self.build("localhost/cudaenv-test-pair:1")
        id2, layers2 = self.build("localhost/cudaenv-test-pair:2")
        print("layers:", layers1)
        print("image:", id1)
        self.assertEqual(layers1, layers2)
        self.assertEqual(id1, id2)
        podman, img = W["podman"], "localhost/cudaenv-test-pair:1"
        r = podman.run(img, "cudaenv", "current")
        self.assertEqual(r.stdout.decode(), "12.6.3+9.8.0 (set by CUDAENV_VERSION)\n")
        r = podman.run(img, "nvcc", "--version")
        self.assertIn(b"release 12.6, V12.6.85", r.stdout)
        # the variables are what `cudaenv use` would set: planning it again in the image changes none
        r = podman.run(img, "cudaenv", "env", "12.6.3+9.8.0", "--json")
        planned = json.loads(r.stdout)
        self.assertEqual({k for k in planned["set"] if not k.startswith("__CUDAENV")} - set(HOST_ONLY), set())
        r = podman.run(img, "cudaenv", "list")
        self.assertIn(b"12.6.3+9.8.0", r.stdout)

    def test_refusals(self):
        s = self.s
        r = s.cli("export", "dockerfile", "12.6", cwd=self.project, ok=False)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("takes no spec", r.stderr)
        r = s.cli("export", "dockerfile", "--base", "debian bookworm", cwd=self.project, ok=False)
        self.assertIn("is not an image reference", r.stderr)
        other = os.path.join(s.tmp, "other")
        os.makedirs(other)
        with open(os.path.join(other, "Dockerfile"), "w") as f:
            f.write("FROM scratch\n")
        r = s.cli("export", "dockerfile", "-o", other, cwd=self.project, ok=False)
        self.one_line_error(r, "exists and was not written by cudaenv")
        self.assertEqual(os.listdir(other), ["Dockerfile"])
        r = s.cli("export", "dockerfile", cwd=s.tmp, ok=False)
        self.one_line_error(r, "no cudaenv.lock")


def main():
    global ARGS
    engine.enter_namespace()
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudaenv", required=True)
    ap.add_argument("--trace-loader", default="")
    ap.add_argument("group")
    ARGS, rest = ap.parse_known_args()
    ARGS.cudaenv = os.path.abspath(ARGS.cudaenv)
    # tests/install's mirror generator leaves files to the collector: not this test's concern.
    unittest.main(argv=[sys.argv[0], ARGS.group] + rest, verbosity=2, warnings="ignore")


if __name__ == "__main__":
    main()
