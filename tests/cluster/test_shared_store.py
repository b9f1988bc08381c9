"""The shared system store (docs/cluster.md): an admin (root) fills it with
`install --system` / `add --system`; an unprivileged user lists, uses, runs and
checks its pairs and can change nothing in it; concurrent installs with a lock
holder killed by SIGKILL leave it consistent.

usage: test_shared_store.py <cudaenv binary> <fakes dir> <group>
Run as root (it creates the store and drops to uid 65534 with setpriv); skips (77) otherwise.
"""
import hashlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "install"))
import archives as A  # noqa: E402  (the install suite's synthetic NVIDIA archives and mirror)

BIN_SRC, FAKES, GROUP = sys.argv[1], sys.argv[2], sys.argv[3]
NOBODY = 65534
SMALL = ["--shape", "2x8x12x12x8", "--runs", "20"]


def tree_digest(root):
    """One hash over every path, type, mode, symlink target and file content below root."""
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            p = os.path.join(d, name)
            st = os.lstat(p)
            h.update(f"{os.path.relpath(p, root)}\0{st.st_mode}\0".encode())
            if stat.S_ISLNK(st.st_mode):
                h.update(os.readlink(p).encode())
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    h.update(f.read())
    return h.hexdigest()


def mk_toolkit(folder, major, version):
    os.makedirs(os.path.join(folder, "lib64"))
    src = os.path.join(FAKES, f"cuda{major}")
    for n in os.listdir(src):
        if n.startswith("libcudart.so"):
            shutil.copy2(os.path.join(src, n), os.path.join(folder, "lib64", n), follow_symlinks=False)
    with open(os.path.join(folder, "version.json"), "w") as f:
        json.dump({"cuda": {"name": "CUDA SDK", "version": version}}, f)


def mk_cudnn(folder, major, version):
    os.makedirs(os.path.join(folder, "lib"))
    os.makedirs(os.path.join(folder, "include"))
    src = os.path.join(FAKES, f"cudnn{major}")
    for n in os.listdir(src):
        if n.startswith("libcudnn"):
            shutil.copy2(os.path.join(src, n), os.path.join(folder, "lib", n))
    ma, mi, pa = version.split(".")
    with open(os.path.join(folder, "include", "cudnn_version.h"), "w") as f:
        f.write(f"#define CUDNN_MAJOR {ma}\n#define CUDNN_MINOR {mi}\n#define CUDNN_PATCHLEVEL {pa}\n")


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-cluster-")
        os.chmod(self.tmp, 0o755)
        # The binaries where uid 65534 can run them.
        self.bindir = os.path.join(self.tmp, "bin")
        os.makedirs(self.bindir)
        for name in ("cudaenv", "cudaenv-install", "cudaenv-probe"):
            shutil.copy2(os.path.join(os.path.dirname(BIN_SRC), name), self.bindir)
        self.bin = os.path.join(self.bindir, "cudaenv")
        self.sys = os.path.join(self.tmp, "system")
        self.admin_home = os.path.join(self.tmp, "admin")
        os.makedirs(self.admin_home)
        self.user_home = os.path.join(self.tmp, "user")
        os.makedirs(self.user_home)
        os.chown(self.user_home, NOBODY, NOBODY)
        base = {k: v for k, v in os.environ.items()
                if not k.startswith(("CUDAENV_", "FAKECUDA", "FAKECUDNN")) and k != "LD_LIBRARY_PATH"}
        base["CUDAENV_SYSTEM_ROOT"] = self.sys
        base["PATH"] = self.bindir + ":" + base.get("PATH", "/usr/bin:/bin")
        self.admin_env = dict(base, HOME=self.admin_home, CUDAENV_ROOT=os.path.join(self.admin_home, "store"))
        self.user_env = dict(base, HOME=self.user_home)  # the default store: ~/.local/share/cudaenv

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def admin(self, *args, ok=True, env=None, timeout=120):
        p = subprocess.run([self.bin, *args], env=env or self.admin_env, cwd=self.admin_home, capture_output=True,
                           text=True, timeout=timeout)
        if ok is not None and (p.returncode == 0) != ok:
            self.fail(f"admin {args}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        return p

    def user(self, *args, ok=True, shell=False, timeout=120):
        cmd = ["bash", "-c", args[0]] if shell else [self.bin, *args]
        p = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--", *cmd],
                           env=self.user_env, cwd=self.user_home, capture_output=True, text=True, timeout=timeout)
        if ok is not None and (p.returncode == 0) != ok:
            self.fail(f"user {args}: exit {p.returncode}\n{p.stdout}\n{p.stderr}")
        return p

    def one_line_error(self, p, *needles):
        self.assertNotEqual(p.returncode, 0)
        lines = [l for l in p.stderr.splitlines() if l.startswith("cudaenv: error:")]
        self.assertEqual(len(lines), 1, p.stderr)
        for n in needles:
            self.assertIn(n, lines[0])


class SharedStore(Base):
    """Root fills the system store; uid 65534 uses it and cannot change it."""

    def setUp(self):
        super().setUp()
        # Pair 1, adopted: fake CUDA 12.6.3 + cuDNN 9.8.0 (check passes against them).
        ext = os.path.join(self.tmp, "ext")
        mk_toolkit(os.path.join(ext, "cuda-12.6"), 12, "12.6.3")
        mk_cudnn(os.path.join(ext, "cudnn", "9.8.0_cuda12"), 9, "9.8.0")
        self.admin("add", "--system", os.path.join(ext, "cuda-12.6"))
        self.admin("add", "--system", os.path.join(ext, "cudnn", "9.8.0_cuda12"))
        # Pair 2, installed from a mirror folder: CUDA 11.8.0 + cuDNN 8.9.7 (pinned in the system store).
        self.mirror = A.build_mirror(os.path.join(self.tmp, "mirror"))
        self.admin("install", "--system", "11.8+8.9.7", "--mirror", self.mirror, "--quiet")
        # The user's own toolkit, beside the shared ones.
        self.own = os.path.join(self.user_home, "cuda-13.0")
        mk_toolkit(self.own, 13, "13.0.1")
        subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", self.own], check=True)
        self.user("add", self.own)

    def test_user_lists_uses_execs_and_checks_shared_pairs(self):
        p = self.user("list", "--json")
        pairs = {e["spec"]: e for e in json.loads(p.stdout)["pairs"]}
        self.assertEqual(set(pairs), {"13.0.1+none", "12.6.3+9.8.0", "11.8.0+8.9.7"})
        self.assertTrue(pairs["12.6.3+9.8.0"]["cuda"]["shared"])
        self.assertTrue(pairs["11.8.0+8.9.7"]["cudnn"]["shared"])  # the admin's pin applies
        self.assertFalse(pairs["13.0.1+none"]["cuda"]["shared"])
        table = self.user("list").stdout
        self.assertIn("shared", [l for l in table.splitlines() if "11.8.0+8.9.7" in l][0])
        self.assertIn("(shared)", [l for l in table.splitlines() if "12.6.3+9.8.0" in l][0])

        before = tree_digest(self.sys)
        p = self.user("exec", "11.8", "--", "printenv", "CUDA_PATH")
        self.assertEqual(p.stdout.strip(), os.path.join(self.sys, "toolkits", "11.8.0"))
        p = self.user("exec", "12.6", "--", "printenv", "CUDNN_PATH")
        self.assertEqual(p.stdout.strip(), os.path.join(self.tmp, "ext", "cudnn", "9.8.0_cuda12"))
        p = self.user(f'eval "$({self.bin} init bash)"; cudaenv use 11.8+8.9.7 && printf "%s\\n" "$CUDA_PATH" '
                      '"$CUDNN_PATH" "$CUDAENV_VERSION"', shell=True)
        self.assertEqual(p.stdout.split(), [os.path.join(self.sys, "toolkits", "11.8.0"),
                                            os.path.join(self.sys, "cudnn", "8.9.7_cuda11"), "11.8.0+8.9.7"])

        p = self.user("check", "12.6+9.8", "--json", *SMALL)
        out = json.loads(p.stdout)
        self.assertTrue(out["pass"])
        self.assertEqual(out["node"]["host"], socket.gethostname())
        self.assertEqual(out["node"]["compute_capability"], "9.0")  # from the fake runtime's device
        self.assertIn("gpu", out["node"])
        self.assertIn("driver", out["node"])
        # Kept in the user's store, per node; list shows it for this node.
        checks = os.path.join(self.user_home, ".local", "share", "cudaenv", "checks")
        files = [f for f in os.listdir(checks) if f.endswith(".json")]
        self.assertEqual(len(files), 1)
        self.assertTrue(files[0].startswith(socket.gethostname()))
        line = [l for l in self.user("list").stdout.splitlines() if "12.6.3+9.8.0" in l][0]
        self.assertIn("pass", line)
        self.assertEqual(tree_digest(self.sys), before)

    def test_admin_check_system_shows_for_users_on_this_node(self):
        p = self.admin("check", "--system", "12.6+9.8", "--json", *SMALL)
        self.assertEqual(json.loads(p.stdout)["node"]["host"], socket.gethostname())
        files = os.listdir(os.path.join(self.sys, "checks"))
        self.assertEqual([f for f in files if f.endswith(".json")], [f for f in files if not f.endswith(".lock")])
        line = [l for l in self.user("list").stdout.splitlines() if "12.6.3+9.8.0" in l][0]
        self.assertIn("pass", line)
        self.assertFalse(os.path.exists(os.path.join(self.sys, "store.lock")))
        # The admin removes a pair from the system store; users no longer see it.
        self.admin("uninstall", "--system", "11.8+8.9.7")
        self.assertEqual(os.listdir(os.path.join(self.sys, "toolkits")), [])
        specs = [e["spec"] for e in json.loads(self.user("list", "--json").stdout)["pairs"]]
        self.assertEqual(specs, ["13.0.1+none", "12.6.3+9.8.0"])

    def test_every_write_to_the_system_store_is_refused(self):
        before = tree_digest(self.sys)
        cudnn9 = A.cudnn_linux(self.tmp, "9.8.0.87", 12)
        another = os.path.join(self.tmp, "another-cuda")
        mk_toolkit(another, 12, "12.4.1")
        attempts = [
            (("install", "--system", "11.8", "--mirror", self.mirror, "--components", "libcublas"), "not writable"),
            (("install", "--system", cudnn9), "not writable"),
            (("add", "--system", another), "not writable"),
            (("uninstall", "--system", "11.8"), "not writable"),
            (("uninstall", "--system", "12.6"), "not writable"),
            (("check", "--system", "12.6", *SMALL), "not writable"),
            (("uninstall", "11.8+8.9.7"), "shared system store"),   # without --system: not the user's to remove
            (("uninstall", "12.6", "--force"), "shared system store"),
        ]
        for args, needle in attempts:
            with self.subTest(args=args):
                p = self.user(*args, ok=False)
                self.one_line_error(p, needle)
                self.assertEqual(tree_digest(self.sys), before, f"{args} changed the system store")
        # The user's own store still works for writes.
        self.user("pair", "12.6", "9.8.0")
        self.user("uninstall", "13.0")
        self.assertEqual(tree_digest(self.sys), before)

    def test_pair_system_pins_for_every_user(self):
        # The admin pins cuDNN 9.8.0 for 12.6 in the system store; users see it where they have none.
        self.admin("pair", "--system", "12.6", "9.8.0")
        with open(os.path.join(self.sys, "config.toml")) as f:
            self.assertIn("'12.6.3' = '9.8.0'", f.read())
        self.assertEqual(self.user("pair", "--system").stdout, "11.8.0 -> 8.9.7\n12.6.3 -> 9.8.0\n")
        p = self.user("exec", "12.6", "--", "printenv", "CUDNN_PATH")
        self.assertEqual(p.stdout.strip(), os.path.join(self.tmp, "ext", "cudnn", "9.8.0_cuda12"))
        before = tree_digest(self.sys)
        p = self.user("pair", "--system", "12.6", "--unset", ok=False)
        self.one_line_error(p, "not writable")
        self.assertEqual(tree_digest(self.sys), before)

    def test_spec_that_matches_nothing(self):
        p = self.user("exec", "10.2", "--", "true", ok=False)
        self.one_line_error(p, "no installed CUDA matches '10.2'", "11.8.0", "12.6.3", "13.0.1")

    def test_corrupt_system_config(self):
        cfg = os.path.join(self.sys, "config.toml")
        with open(cfg, "a") as f:
            f.write("\n[[toolkit]\nbroken = \n")
        p = self.user("list", "--json")
        self.assertIn(cfg, p.stderr)  # names the file
        specs = [e["spec"] for e in json.loads(p.stdout)["pairs"]]
        self.assertEqual(specs, ["13.0.1+none"])  # the user's own pairs still usable
        p = self.user("exec", "13.0", "--", "printenv", "CUDA_PATH")
        self.assertEqual(p.stdout.strip(), self.own)
        p = self.user("exec", "11.8", "--", "true", ok=False)
        self.assertIn(cfg, p.stderr)
        # The admin gets the error itself, naming the file, and nothing is written.
        before = tree_digest(self.sys)
        another = os.path.join(self.tmp, "another-cuda")  # root's: one the system store may take
        mk_toolkit(another, 12, "12.4.1")
        p = self.admin("add", "--system", another, ok=False)
        self.one_line_error(p, cfg)
        self.assertEqual(tree_digest(self.sys), before)


class Trust(Base):
    """A system store that someone else could change is never used: an
    unprivileged user who can write into it could put programs on root's PATH."""

    def setUp(self):
        super().setUp()
        ext = os.path.join(self.tmp, "ext")
        mk_toolkit(os.path.join(ext, "cuda-12.6"), 12, "12.6.3")
        self.admin("add", "--system", os.path.join(ext, "cuda-12.6"))
        self.toolkits = os.path.join(self.sys, "toolkits")
        os.makedirs(self.toolkits, exist_ok=True)
        # A root shell of the admin's, with no store of its own.
        self.root_env = dict(self.admin_env, CUDAENV_ROOT=os.path.join(self.admin_home, "root-store"))

    def plant(self):
        """uid 65534 plants toolkits/12.9.1, whose nvcc leaves a canary."""
        canary = os.path.join(self.tmp, "PWNED")
        script = (f"mkdir -p {self.toolkits}/12.9.1/bin {self.toolkits}/12.9.1/lib64 && "
                  f"printf '{{\"cuda\": {{\"name\": \"CUDA SDK\", \"version\": \"12.9.1\"}}}}' "
                  f"> {self.toolkits}/12.9.1/version.json && "
                  f"printf '#!/bin/sh\\ntouch {canary}\\n' > {self.toolkits}/12.9.1/bin/nvcc && "
                  f"chmod +x {self.toolkits}/12.9.1/bin/nvcc && : > {self.toolkits}/12.9.1/lib64/libcudart.so.12")
        self.user(script, shell=True)
        return canary

    def test_world_writable_toolkits_is_left_out(self):
        os.chmod(self.toolkits, 0o1777)  # the admin's mistake
        canary = self.plant()
        p = self.admin("exec", "12", "--", "sh", "-c", 'nvcc; echo "$CUDA_PATH"', env=self.root_env, ok=None)
        self.assertFalse(os.path.exists(canary), "root ran the planted nvcc")
        self.assertNotIn("12.9.1", p.stdout)
        self.assertIn("cudaenv: warning: leaving out the shared system store: "
                      f"'{self.toolkits}' can be changed by everyone (mode 1777)", p.stderr)
        self.assertIn("CUDAENV_TRUST_SYSTEM_STORE=1", p.stderr)
        # --system writes stop before anything is written.
        p = self.admin("add", "--system", os.path.join(self.tmp, "ext", "cuda-12.6"), ok=False)
        self.one_line_error(p, "the shared system store is not safe to write", "can be changed by everyone")
        # The explicit opt-in uses it, loudly.
        env = dict(self.root_env, CUDAENV_TRUST_SYSTEM_STORE="1")
        p = self.admin("env", "12", "--json", env=env)
        self.assertEqual(json.loads(p.stdout)["set"]["CUDA_PATH"], os.path.join(self.toolkits, "12.9.1"))
        self.assertIn("cudaenv: warning: using the shared system store although", p.stderr)
        self.assertFalse(os.path.exists(canary))

    def test_group_writable_config_and_foreign_owner(self):
        cfg = os.path.join(self.sys, "config.toml")
        os.chmod(cfg, 0o664)
        p = self.admin("list", "--json", env=self.root_env)
        self.assertEqual(json.loads(p.stdout)["pairs"], [])
        self.assertIn(f"'{cfg}' can be changed by its group", p.stderr)
        os.chmod(cfg, 0o644)
        os.chown(cfg, NOBODY, NOBODY)
        p = self.admin("list", "--json", env=self.root_env)
        self.assertEqual(json.loads(p.stdout)["pairs"], [])
        self.assertIn(f"'{cfg}' belongs to uid {NOBODY}, not to root", p.stderr)
        os.chown(cfg, 0, 0)
        p = self.admin("list", "--json", env=self.root_env)
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["12.6.3+none"])

    def test_an_adopted_folder_someone_else_can_change(self):
        folder = os.path.join(self.tmp, "ext", "cuda-12.6")
        os.chmod(folder, 0o777)
        p = self.user("exec", "12.6", "--", "true", ok=False)
        self.assertIn(f"leaving out {folder} of the shared system store: '{folder}' can be changed by everyone", p.stderr)
        os.chmod(folder, 0o755)
        self.user("exec", "12.6", "--", "true")

    def test_add_system_refuses_a_users_1777_folder(self):
        drop = os.path.join(self.tmp, "drop")
        os.makedirs(drop)
        os.chown(drop, NOBODY, NOBODY)
        os.chmod(drop, 0o1777)
        mk_toolkit(os.path.join(drop, "cuda-12.4"), 12, "12.4.1")
        subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", os.path.join(drop, "cuda-12.4")], check=True)
        os.chmod(os.path.join(drop, "cuda-12.4"), 0o1777)
        before = tree_digest(self.sys)
        p = self.admin("add", "--system", os.path.join(drop, "cuda-12.4"), ok=False)
        self.one_line_error(p, "the shared system store does not take", f"belongs to uid {NOBODY}")
        self.assertEqual(tree_digest(self.sys), before)

    def test_a_store_anyone_could_have_made(self):
        # uid 65534 makes the store first, in a folder everyone may write (as /tmp).
        shutil.rmtree(self.sys)
        drop = os.path.join(self.tmp, "sticky")
        os.makedirs(drop)
        os.chmod(drop, 0o1777)
        fake = os.path.join(drop, "cudaenv")
        self.user(f"mkdir -m 755 {fake} {fake}/toolkits", shell=True)
        env = dict(self.root_env, CUDAENV_SYSTEM_ROOT=fake)
        p = self.admin("list", env=env)
        self.assertIn(f"leaving out the shared system store: '{fake}' belongs to uid {NOBODY}, and '{drop}' can be "
                      "changed by everyone (mode 1777): anyone there could have made it", p.stderr)
        # Its own owner may use it: nothing crosses from one account to another.
        p = self.user("list", ok=None)
        self.assertNotIn("leaving out", p.stderr.replace(drop, ""))

    def test_root_leaves_out_a_store_another_account_owns(self):
        # Issue 40 N4': the store of an admin account (not root): its users use
        # it, root does not, as that account could put programs on root's PATH.
        subprocess.run(["chown", "-R", f"{NOBODY}:{NOBODY}", self.sys], check=True)
        p = self.admin("list", "--json", env=self.root_env)
        self.assertEqual(json.loads(p.stdout)["pairs"], [])
        self.assertIn(f"cudaenv: warning: leaving out the shared system store: '{self.sys}' belongs to uid {NOBODY}, "
                      "and root uses no store another account owns: it could put programs on root's PATH", p.stderr)
        self.assertIn("CUDAENV_TRUST_SYSTEM_STORE=1", p.stderr)
        # The explicit opt-in uses it, and says so.
        env = dict(self.root_env, CUDAENV_TRUST_SYSTEM_STORE="1")
        p = self.admin("list", "--json", env=env)
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["12.6.3+none"])
        self.assertIn("cudaenv: warning: using the shared system store although", p.stderr)
        # Its owner, and another user of the cluster, use it without a word.
        p = self.user("list", "--json")
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["12.6.3+none"])
        self.assertNotIn("leaving out", p.stderr)
        other = os.path.join(self.tmp, "other")
        os.makedirs(other)
        os.chown(other, NOBODY - 1, NOBODY - 1)
        p = subprocess.run(["setpriv", f"--reuid={NOBODY - 1}", f"--regid={NOBODY - 1}", "--clear-groups", "--",
                            self.bin, "list", "--json"], env=dict(self.user_env, HOME=other), cwd=other,
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["12.6.3+none"])
        self.assertNotIn("leaving out", p.stderr)

    def test_a_new_store_is_made_writable_by_its_admin_only(self):
        shutil.rmtree(self.sys)
        p = subprocess.run(["sh", "-c", f"umask 002 && exec {self.bin} add --system {self.tmp}/ext/cuda-12.6"],
                           env=self.admin_env, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(stat.S_IMODE(os.stat(self.sys).st_mode), 0o755)
        self.assertEqual(stat.S_IMODE(os.stat(os.path.join(self.sys, "config.toml")).st_mode) & 0o022, 0)
        p = self.user("list", "--json")
        self.assertNotIn("leaving out", p.stderr)
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["12.6.3+none"])


class Concurrency(Base):
    """Two installs into the system store at once, the lock holder killed with SIGKILL."""

    def setUp(self):
        super().setUp()
        self.mirror = A.build_mirror(os.path.join(self.tmp, "mirror"))

    def lock_file(self):
        return os.path.join(self.sys, "store.lock")

    def wait_for(self, cond, what, secs=30):
        end = time.time() + secs
        while time.time() < end:
            if cond():
                return
            time.sleep(0.05)
        self.fail("timed out waiting for " + what)

    def start(self, *args, env=None):
        return subprocess.Popen([self.bin, *args], env=env or self.admin_env, cwd=self.admin_home,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def assert_consistent(self):
        p = self.admin("list", "--json", env=dict(self.admin_env, CUDAENV_ROOT=self.sys))
        self.assertEqual([e["spec"] for e in json.loads(p.stdout)["pairs"]], ["11.8.0+8.9.7"])
        self.assertEqual(os.listdir(os.path.join(self.sys, "toolkits")), ["11.8.0"])
        self.assertEqual(os.listdir(os.path.join(self.sys, "cudnn")), ["8.9.7_cuda11"])
        leftovers = [n for n in os.listdir(os.path.join(self.sys, "tmp")) if n != "install.lock"]
        self.assertEqual(leftovers, [])
        self.assertFalse(os.path.exists(self.lock_file()))
        self.assertEqual([n for n in os.listdir(self.sys) if ".stale." in n], [])

    def test_holder_killed_with_sigkill(self):
        # A holds the lock and blocks reading an archive from a FIFO nobody writes.
        fifo = os.path.join(self.tmp, "fifo", "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz")
        os.makedirs(os.path.dirname(fifo))
        os.mkfifo(fifo)
        a = self.start("install", "--system", fifo)
        self.wait_for(lambda: os.path.exists(self.lock_file()) and f"pid={a.pid}\n" in open(self.lock_file()).read(),
                      "A to take the lock")
        owner = open(self.lock_file()).read()
        self.assertIn(f"host={socket.gethostname()}\n", owner)
        b = self.start("install", "--system", "11.8+8.9.7", "--mirror", self.mirror)
        time.sleep(1.5)
        self.assertIsNone(b.poll(), "B must wait while A holds the lock")
        a.send_signal(signal.SIGKILL)
        a.wait()
        self.assertTrue(os.path.exists(self.lock_file()) or b.poll() is not None)
        out, err = b.communicate(timeout=60)
        self.assertEqual(b.returncode, 0, err)
        self.assertIn("waiting for cudaenv (pid", err)
        self.assertIn("recovering the lock", err)
        self.assert_consistent()
        # The next install succeeds.
        cudnn9 = A.cudnn_linux(self.tmp, "9.8.0.87", 12)
        self.admin("install", "--system", cudnn9, "--quiet")
        self.assertEqual(sorted(os.listdir(os.path.join(self.sys, "cudnn"))), ["8.9.7_cuda11", "9.8.0_cuda12"])

    def test_two_installs_at_once(self):
        procs = [self.start("install", "--system", "11.8+8.9.7", "--mirror", self.mirror, "--quiet") for _ in range(2)]
        outs = [p.communicate(timeout=90) for p in procs]
        for p, (out, err) in zip(procs, outs):
            self.assertEqual(p.returncode, 0, err)
        self.assertTrue(any("already installed" in out for out, _ in outs), outs)
        self.assert_consistent()

    def write_foreign_lock(self, age):
        os.makedirs(self.sys, exist_ok=True)
        with open(self.lock_file(), "w") as f:
            f.write("cudaenv-lock 1\nhost=node-elsewhere\npid=4242\ntoken=feedbeef\nsince=1700000000\nend\n")
        t = time.time() - age
        os.utime(self.lock_file(), (t, t))

    def test_lock_of_another_host(self):
        # Old: recovered at once (its pid means nothing here; only its age counts).
        self.write_foreign_lock(age=3600)
        p = self.admin("install", "--system", "11.8", "--mirror", self.mirror)
        self.assertIn("pid 4242 on node-elsewhere", p.stderr)
        # Fresh: waited for until it is older than the stale age.
        self.write_foreign_lock(age=0)
        start = time.time()
        p = self.admin("install", "--system", "11.8+8.9.7", "--mirror", self.mirror,
                       env=dict(self.admin_env, CUDAENV_LOCK_STALE_SECONDS="3"))
        self.assertGreaterEqual(time.time() - start, 2.5)
        self.assertIn("waiting for cudaenv (pid 4242 on node-elsewhere)", p.stderr)
        self.assert_consistent()


if __name__ == "__main__":
    if os.geteuid() != 0:
        print("SKIP: the shared store tests create a system store as root and drop to uid 65534; run them as root")
        sys.exit(77)
    suite = unittest.defaultTestLoader.loadTestsFromName(GROUP, sys.modules[__name__])
    ok = unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful()
    sys.exit(0 if ok else 1)
