#!/usr/bin/env python3
"""Tool shims (`cudaenv rehash` + the cudaenv-shim program) and `cudaenv setup`.

Every test runs with a fresh CUDAENV_ROOT and HOME in a temporary folder.
The fake toolkits' tools are tiny sh scripts that say which toolkit they
belong to, so a test can tell which one the shim ran.
"""
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from cudaenv_fixture import write  # noqa: E402,F401 (tests/lib)

CUDAENV = os.environ.get("CUDAENV_EXE", "")
SHIM_PROGRAM = os.environ.get("CUDAENV_SHIM_EXE", "")

FAKE_TOOL = r"""#!/bin/sh
# A fake CUDA tool: says which toolkit it belongs to, and misbehaves on request.
case "$1" in
  --exit) exit "$2" ;;
  --kill) kill -TERM $$ ; sleep 5 ; exit 0 ;;
  --cat) echo "@TOOL@ @VER@ stdin:"; cat ; exit 0 ;;
  --args) shift; for a in "$@"; do printf '[%s]\n' "$a"; done; exit 0 ;;
  --ppid) echo "$PPID"; exit 0 ;;
  --env) echo "CUDA_HOME=$CUDA_HOME"; echo "CUDAENV_VERSION=$CUDAENV_VERSION"; echo "PATH=$PATH"
         echo "CUDACXX=$CUDACXX"; echo "CUDAToolkit_ROOT=$CUDAToolkit_ROOT"; exit 0 ;;
esac
echo "@TOOL@ @VER@"
"""


def make_toolkit(root, version, tools):
    """A toolkit folder that detect_toolkit accepts: bin/nvcc + version.json."""
    write(os.path.join(root, "version.json"), '{"cuda": {"name": "CUDA SDK", "version": "%s"}}\n' % version)
    for tool in tools:
        write(os.path.join(root, "bin", tool),
              FAKE_TOOL.replace("@TOOL@", tool).replace("@VER@", version), 0o755)
    # Not tools: a library and a data file in bin must not get shims.
    write(os.path.join(root, "bin", "nvcc.profile"), "TOP = $(_HERE_)/..\n", 0o644)
    write(os.path.join(root, "bin", "libfake.so.1"), "", 0o755)
    return root


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-shims-")
        self.root = os.path.join(self.tmp, "store")
        self.home = os.path.join(self.tmp, "home")
        os.makedirs(self.home)
        self.shims = os.path.join(self.root, "shims")
        # A PATH with a plain system folder but no CUDA.
        self.sysbin = os.path.join(self.tmp, "sysbin")
        os.makedirs(self.sysbin)
        self.env = {
            "CUDAENV_ROOT": self.root,
            "HOME": self.home,
            "PATH": os.pathsep.join([self.shims, self.sysbin, "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
            "SHELL": "/bin/bash",
        }

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def cudaenv(self, *args, check=True, env=None, cwd=None):
        p = subprocess.run([CUDAENV, *args], capture_output=True, text=True, env=env or self.env,
                           cwd=cwd or self.tmp)
        if check and p.returncode != 0:
            self.fail("cudaenv %s failed (%d): %s%s" % (" ".join(args), p.returncode, p.stdout, p.stderr))
        return p

    def add_toolkits(self):
        """CUDA 11.8 (nvcc, cuobjdump) and 12.4 (nvcc, ptxas), adopted with `cudaenv add`."""
        self.tk118 = make_toolkit(os.path.join(self.tmp, "cuda 11.8"), "11.8.89", ["nvcc", "cuobjdump"])
        self.tk124 = make_toolkit(os.path.join(self.tmp, "cuda-12.4"), "12.4.1", ["nvcc", "ptxas"])
        self.cudaenv("add", self.tk118)
        self.cudaenv("add", self.tk124)

    def shim(self, tool, *args, cwd=None, env=None, stdin=None):
        return subprocess.run([os.path.join(self.shims, tool), *args], capture_output=True, text=True,
                              cwd=cwd or self.tmp, env=env or self.env, input=stdin)


class ToolShimTest(Base):
    def setUp(self):
        super().setUp()
        self.add_toolkits()
        # proj/.cudaenv = 11.8, proj/new/.cudaenv = 12.4, proj/new/src/deep has none of its own.
        self.proj = os.path.join(self.tmp, "proj")
        self.new = os.path.join(self.proj, "new")
        self.deep = os.path.join(self.new, "src", "deep")
        os.makedirs(self.deep)
        write(os.path.join(self.proj, ".cudaenv"), "11.8\n")
        write(os.path.join(self.new, ".cudaenv"), "# the new code\n12.4\n")

    def test_nested_projects_pick_their_nvcc(self):
        self.assertEqual(self.shim("nvcc", cwd=self.proj).stdout, "nvcc 11.8.89\n")
        self.assertEqual(self.shim("nvcc", cwd=self.new).stdout, "nvcc 12.4.1\n")
        self.assertEqual(self.shim("nvcc", cwd=self.deep).stdout, "nvcc 12.4.1\n")
        self.assertEqual(self.shim("cuobjdump", cwd=self.proj).stdout, "cuobjdump 11.8.89\n")

    def test_tool_versions_and_global(self):
        other = os.path.join(self.tmp, "other")
        write(os.path.join(other, ".tool-versions"), "python 3.12\ncuda 11.8\n")
        self.assertEqual(self.shim("nvcc", cwd=other).stdout, "nvcc 11.8.89\n")
        self.cudaenv("global", "12.4")
        self.assertEqual(self.shim("nvcc", cwd=self.tmp).stdout, "nvcc 12.4.1\n")

    def test_cudaenv_version_wins_over_the_file(self):
        env = dict(self.env, CUDAENV_VERSION="11.8")
        self.assertEqual(self.shim("nvcc", cwd=self.deep, env=env).stdout, "nvcc 11.8.89\n")

    def test_pair_environment(self):
        out = self.shim("nvcc", "--env", cwd=self.new).stdout.splitlines()
        self.assertIn("CUDA_HOME=" + self.tk124, out)
        self.assertIn("CUDAENV_VERSION=12.4.1+none", out)  # the exact pair, as `current` names it
        path = [l for l in out if l.startswith("PATH=")][0][5:].split(":")
        self.assertEqual(path[0], os.path.join(self.tk124, "bin"))
        self.assertIn(self.sysbin, path)

    def test_arguments_pass_through(self):
        args = ["a b", "it's", 'say "hi"', "", "$HOME", "`x`", "*", "张三", "--flag=1 2"]
        p = self.shim("nvcc", "--args", *args, cwd=self.proj)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "".join("[%s]\n" % a for a in args))

    def test_stdin_passes_through(self):
        p = self.shim("nvcc", "--cat", cwd=self.proj, stdin="line one\nline two\n")
        self.assertEqual(p.stdout, "nvcc 11.8.89 stdin:\nline one\nline two\n")

    def test_exit_status_passes_through(self):
        p = self.shim("nvcc", "--exit", "3", cwd=self.proj)
        self.assertEqual(p.returncode, 3)
        self.assertEqual(p.stderr, "")

    def test_signal_passes_through(self):
        p = self.shim("nvcc", "--kill", cwd=self.proj)
        self.assertEqual(p.returncode, -signal.SIGTERM)
        # Through a shell too: bash sees a death by SIGTERM (128 + 15).
        q = subprocess.run(["bash", "-c", '"$0" --kill; echo "status=$?"', os.path.join(self.shims, "nvcc")],
                           capture_output=True, text=True, cwd=self.proj, env=self.env)
        self.assertIn("status=143", q.stdout)

    def test_the_shim_is_the_tool_process_itself(self):
        # exec, not a child: the tool's parent is the caller, so no cudaenv process stays around.
        p = self.shim("nvcc", "--ppid", cwd=self.proj)
        self.assertEqual(p.stdout.strip(), str(os.getpid()))

    def test_tool_the_pair_lacks(self):
        # Nothing else on PATH has it: the shell's own "not found" status, with the reason.
        p = self.shim("ptxas", cwd=self.proj)
        self.assertEqual(p.returncode, 127)
        self.assertIn("cudaenv: error: ptxas: no ptxas on PATH outside cudaenv's shims, and CUDA 11.8.89+none "
                      "has none (set by %s)" % os.path.join(self.proj, ".cudaenv"), p.stderr)
        self.assertIn("hint: ", p.stderr)
        self.assertEqual(self.shim("ptxas", cwd=self.new).stdout, "ptxas 12.4.1\n")

    def test_tool_the_pair_lacks_falls_through_to_path(self):
        # As for system: the next ptxas on PATH runs, with the shims folder taken out of its PATH.
        write(os.path.join(self.sysbin, "ptxas"), '#!/bin/sh\necho "system ptxas"\necho "PATH=$PATH"\n', 0o755)
        p = self.shim("ptxas", cwd=self.proj)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "system ptxas")
        self.assertNotIn(self.shims, lines[1][5:].split(":"))
        self.assertEqual(p.stderr, "")

    def test_pair_environment_has_build_tool_variables(self):
        # CMake's CUDACXX and FindCUDAToolkit's CUDAToolkit_ROOT, over a user's own value.
        env = dict(self.env, CUDACXX="/opt/elsewhere/bin/nvcc")
        out = self.shim("nvcc", "--env", cwd=self.new, env=env).stdout.splitlines()
        self.assertIn("CUDACXX=" + os.path.join(self.tk124, "bin", "nvcc"), out)
        self.assertIn("CUDAToolkit_ROOT=" + self.tk124, out)

    def test_unresolvable_pair(self):
        bad = os.path.join(self.tmp, "old")
        write(os.path.join(bad, ".cudaenv"), "10.2\n")
        p = self.shim("nvcc", cwd=bad)
        self.assertNotEqual(p.returncode, 0)
        self.assertTrue(p.stderr.startswith("cudaenv: error: nvcc: no installed CUDA matches '10.2'"), p.stderr)
        self.assertIn(os.path.join(bad, ".cudaenv"), p.stderr)
        self.assertIn("hint: ", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_hostile_cudaenv_is_not_run(self):
        bad = os.path.join(self.tmp, "hostile")
        marker = os.path.join(self.tmp, "pwned")
        write(os.path.join(bad, ".cudaenv"), "$(touch %s)\n" % marker)
        p = self.shim("nvcc", cwd=bad)
        self.assertEqual(p.returncode, 1)
        self.assertIn("cudaenv: error: nvcc: ", p.stderr)
        self.assertFalse(os.path.exists(marker))

    def test_system_runs_the_next_tool_on_path(self):
        write(os.path.join(self.sysbin, "nvcc"),
              '#!/bin/sh\necho "system nvcc"\necho "PATH=$PATH"\n', 0o755)
        nowhere = os.path.join(self.tmp, "nowhere")
        os.makedirs(nowhere)
        p = self.shim("nvcc", cwd=nowhere)
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "system nvcc")
        # The shims folder is gone from the tool's PATH, so nothing loops back.
        self.assertNotIn(self.shims, lines[1][5:].split(":"))
        # Explicit system in a project.
        sysproj = os.path.join(self.tmp, "sysproj")
        write(os.path.join(sysproj, ".cudaenv"), "system\n")
        self.assertEqual(self.shim("nvcc", cwd=sysproj).stdout.splitlines()[0], "system nvcc")

    def test_system_without_the_tool(self):
        nowhere = os.path.join(self.tmp, "nowhere")
        os.makedirs(nowhere)
        # The shims folder twice on PATH (another spelling too): still no recursion.
        env = dict(self.env, PATH=os.pathsep.join([self.shims, self.shims + "/", self.sysbin]))
        p = self.shim("nvcc", cwd=nowhere, env=env)
        self.assertEqual(p.returncode, 127)
        self.assertIn("cudaenv: error: nvcc: no nvcc on PATH outside cudaenv's shims", p.stderr)

    def test_shim_program_by_its_own_name(self):
        p = subprocess.run([SHIM_PROGRAM], capture_output=True, text=True, env=self.env)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cudaenv rehash", p.stderr)


class RehashTest(Base):
    def listing(self):
        return sorted(os.listdir(self.shims))

    def test_add_rehashes_and_rehash_removes_stale(self):
        # Stale session shims: `add` writes cudaenv's own with the tool shims,
        # and rehash never removes them as stale tools.
        write(os.path.join(self.shims, "cudaenv.ps1"), "\ufeff# session shim\n")
        write(os.path.join(self.shims, "cudaenv.cmd"), "@echo off\r\n")
        self.add_toolkits()  # `add` runs rehash and writes the session shims
        before = {n: open(os.path.join(self.shims, n), "rb").read() for n in ("cudaenv.ps1", "cudaenv.cmd")}
        for data in before.values():
            self.assertIn(b"cudaenv", data)
            self.assertNotIn(b"# session shim", data)
        self.assertEqual(self.listing(), ["cudaenv.cmd", "cudaenv.ps1", "cuobjdump", "nvcc", "ptxas"])
        prog = os.stat(SHIM_PROGRAM)
        for tool in ("nvcc", "ptxas", "cuobjdump"):
            self.assert_own_copy(os.path.join(self.shims, tool), prog)

        # CUDA 12.4 goes away: ptxas only it had; rehash removes that shim.
        cfg = os.path.join(self.root, "config.toml")
        text = open(cfg).read()
        blocks = text.split("[[toolkit]]")
        kept = [b for b in blocks if "cuda-12.4" not in b]
        write(cfg, "[[toolkit]]".join(kept))
        p = self.cudaenv("rehash")
        self.assertIn("removed ptxas", p.stdout)
        self.assertEqual(self.listing(), ["cudaenv.cmd", "cudaenv.ps1", "cuobjdump", "nvcc"])
        for n, data in before.items():
            self.assertEqual(open(os.path.join(self.shims, n), "rb").read(), data)

        # Nothing to do the second time.
        p = self.cudaenv("rehash")
        self.assertEqual(p.stdout.strip(), "2 tool shim(s) in %s" % self.shims)

    def assert_own_copy(self, shim, prog):
        """A copy of the program, never the program's own inode: writing into a
        shim (or `chmod -R` on the store) must not change cudaenv-shim."""
        st = os.lstat(shim)
        self.assertTrue(stat.S_ISREG(st.st_mode), shim)
        self.assertTrue(st.st_mode & stat.S_IXUSR)
        self.assertNotEqual((st.st_dev, st.st_ino), (prog.st_dev, prog.st_ino))
        self.assertEqual(st.st_nlink, 1)
        self.assertEqual(self.read_bytes(shim), self.read_bytes(SHIM_PROGRAM))

    def read_bytes(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_a_shim_is_never_the_installed_program(self):
        # The program in a private copy on this file system, as an install puts it.
        program = os.path.join(self.tmp, "bin", "cudaenv-shim")
        os.makedirs(os.path.dirname(program))
        shutil.copy2(SHIM_PROGRAM, program)
        shutil.copy2(CUDAENV, os.path.join(self.tmp, "bin", "cudaenv"))
        local = os.path.join(self.tmp, "bin", "cudaenv")
        make_toolkit(os.path.join(self.tmp, "cuda-12.4"), "12.4.1", ["nvcc", "ptxas"])
        before = self.read_bytes(program)
        # A shim from an older cudaenv, hard-linked to the program, is replaced too.
        os.makedirs(self.shims, exist_ok=True)
        os.link(program, os.path.join(self.shims, "ptxas"))
        subprocess.run([local, "add", os.path.join(self.tmp, "cuda-12.4")], check=True, env=self.env,
                       capture_output=True)
        prog = os.stat(program)
        self.assertEqual(prog.st_nlink, 1)
        for tool in ("nvcc", "ptxas"):
            self.assert_own_copy(os.path.join(self.shims, tool), prog)
        # Writing into a shim and `chmod -R` on the store leave the program as it was.
        with open(os.path.join(self.shims, "nvcc"), "ab") as f:
            f.write(b"garbage")
        subprocess.run(["chmod", "-R", "a+w", self.root], check=True)
        self.assertEqual(self.read_bytes(program), before)
        self.assertEqual(stat.S_IMODE(os.stat(program).st_mode), stat.S_IMODE(prog.st_mode))

    def test_full_disk_says_so(self):
        """A store on a full file system: the warning says the disk is full, not
        "Input/output error" (std::filesystem::copy_file's word for a short copy)."""
        if os.geteuid() != 0:
            self.skipTest("needs root to mount a small tmpfs")
        os.makedirs(self.shims)
        size = os.path.getsize(SHIM_PROGRAM)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%dk" % (size // 1024 + 64), "tmpfs", self.shims],
                          capture_output=True).returncode != 0:
            self.skipTest("cannot mount a tmpfs here")
        try:
            make_toolkit(os.path.join(self.tmp, "cuda-12.4"), "12.4.1", ["nvcc", "ptxas"])
            p = self.cudaenv("add", os.path.join(self.tmp, "cuda-12.4"))  # adopted; its shims do not fit
            self.assertIn("cudaenv: warning: the tool shims were not updated: ", p.stderr)
            self.assertIn("No space left on device (disk full?)", p.stderr)
            self.assertNotIn("Input/output error", p.stderr)
            self.assertEqual([n for n in os.listdir(self.shims) if "tmp" in n], [])  # nothing half-written left
        finally:
            subprocess.run(["umount", self.shims])

    def test_replaces_an_old_shim_and_leaves_foreign_files(self):
        self.add_toolkits()
        # An old build of the shim (a copy holding the marker) and a user's file.
        old = os.path.join(self.shims, "nvdisasm")
        write(old, "old build: cudaenv-shim: the cudaenv tool shim\n", 0o755)
        os.unlink(os.path.join(self.shims, "nvcc"))
        shutil.copy(SHIM_PROGRAM, os.path.join(self.shims, "nvcc"))
        write(os.path.join(self.shims, "notes.txt"), "mine\n")
        p = self.cudaenv("rehash")
        self.assertIn("removed nvdisasm", p.stdout)
        self.assertFalse(os.path.exists(old))
        self.assertTrue(os.path.exists(os.path.join(self.shims, "notes.txt")))
        # The copy is byte-identical to the program, so it stays (it works as it is).
        self.assertEqual(self.shim("nvcc", env=dict(self.env, CUDAENV_VERSION="12.4")).stdout, "nvcc 12.4.1\n")

    def test_only_the_toolkits_own_tools_get_shims(self):
        # A conda-like environment adopted as a toolkit: nvcc beside python3, gcc, ls and git.
        env_root = make_toolkit(os.path.join(self.tmp, "conda-env"), "12.4.1",
                                ["nvcc", "ptxas", "python3", "gcc", "ls", "git", "cudaenv-helper"])
        self.cudaenv("add", env_root)
        # Beside the session shims (cudaenv.cmd, cudaenv.ps1), which every rehash writes.
        self.assertEqual(self.listing(), ["cudaenv.cmd", "cudaenv.ps1", "nvcc", "ptxas"])
        # `ls` on PATH keeps working whatever pair is active.
        proj = os.path.join(self.tmp, "p")
        write(os.path.join(proj, ".cudaenv"), "12.4\n")
        p = subprocess.run(["ls", "/"], capture_output=True, text=True, cwd=proj, env=self.env)
        self.assertEqual(p.returncode, 0, p.stderr)
        # Shims an older cudaenv made for such tools are removed.
        shutil.copy(SHIM_PROGRAM, os.path.join(self.shims, "python3"))
        p = self.cudaenv("rehash")
        self.assertIn("removed python3", p.stdout)
        self.assertEqual(self.listing(), ["cudaenv.cmd", "cudaenv.ps1", "nvcc", "ptxas"])

    def test_discover_add_rehashes(self):
        make_toolkit(os.path.join(self.tmp, "roots", "cuda-12.4"), "12.4.1", ["nvcc", "ncu"])
        self.cudaenv("discover", "--add", "--root", os.path.join(self.tmp, "roots"))
        self.assertIn("ncu", self.listing())

    def test_gone_toolkit_is_skipped(self):
        self.add_toolkits()
        shutil.rmtree(self.tk124)
        p = self.cudaenv("rehash")
        self.assertNotIn("ptxas", self.listing())
        self.assertIn("nvcc", self.listing())


class HostCompilerTest(Base):
    """On Linux `use`/`env` point NVCC_CCBIN and CUDAHOSTCXX at a supported g++-N when c++ is too new."""

    def setUp(self):
        super().setUp()
        self.add_toolkits()
        self.cc = os.path.join(self.tmp, "cc")
        # A c++ newer than CUDA 11.8's nvcc accepts (GCC 11 at most), and a g++-11 beside it.
        write(os.path.join(self.cc, "c++"), '#!/bin/sh\necho "c++ (Debian 14.2.0-8) 14.2.0"\n', 0o755)
        write(os.path.join(self.cc, "g++-11"), '#!/bin/sh\necho "g++-11 (Debian 11.5.0-1) 11.5.0"\n', 0o755)
        # Only these compilers on PATH (the fake scripts start through their #! line).
        self.env["PATH"] = os.pathsep.join([self.cc, self.shims])

    def env_json(self, spec, env=None):
        import json
        return json.loads(self.cudaenv("env", spec, "--json", env=env).stdout)

    def test_picks_a_supported_gcc(self):
        out = self.env_json("11.8")
        gxx = os.path.join(self.cc, "g++-11")
        self.assertEqual(out["set"].get("NVCC_CCBIN"), gxx)
        self.assertEqual(out["set"].get("CUDAHOSTCXX"), gxx)
        # CUDA 12.4 accepts GCC 13 at most: no g++-13 or g++-12 here, so the newest that fits, g++-11.
        self.assertEqual(self.env_json("12.4")["set"].get("NVCC_CCBIN"), gxx)
        # Without a supported one on PATH nothing is set.
        os.unlink(gxx)
        self.assertNotIn("NVCC_CCBIN", self.env_json("11.8")["set"])

    def test_never_over_the_users_value(self):
        env = dict(self.env, NVCC_CCBIN="/opt/my/g++", CUDAHOSTCXX="/opt/my/g++")
        out = self.env_json("11.8", env=env)
        self.assertNotIn("NVCC_CCBIN", out["set"])
        self.assertNotIn("CUDAHOSTCXX", out["set"])
        self.assertNotIn("NVCC_CCBIN", out["unset"])

    def test_use_says_what_it_chose(self):
        p = self.cudaenv("use", "11.8", env=dict(self.env, CUDAENV_SHELL="bash"))
        self.assertIn("c++ is GCC 14; CUDA 11.8's nvcc accepts GCC up to 11", p.stderr)
        self.assertIn(os.path.join(self.cc, "g++-11"), p.stderr)

    def test_compiler_started_once_then_kept(self):
        # The decision is kept in the store: a c++ that logs each start runs once for many calls.
        log = os.path.join(self.tmp, "starts")
        write(os.path.join(self.cc, "c++"), '#!/bin/sh\necho x >>"%s"\necho "c++ (Debian 14.2.0-8) 14.2.0"\n' % log,
              0o755)
        for _ in range(5):
            self.env_json("11.8")
        with open(log) as f:
            self.assertEqual(f.read(), "x\n")


class SetupTest(Base):
    def setUp(self):
        super().setUp()
        self.bashrc = os.path.join(self.home, ".bashrc")

    def read(self, path):
        with open(path, "rb") as f:
            return f.read()

    def test_setup_and_undo_existing_profile(self):
        # A CRLF .bashrc is refused (bash cannot run CRLF lines): tests/setup/test_setup.py.
        for original in (b"# my bashrc\nalias ll='ls -l'\n", b"export A=1", b""):
            with self.subTest(original=original):
                with open(self.bashrc, "wb") as f:
                    f.write(original)
                os.chmod(self.bashrc, 0o600)
                self.cudaenv("setup", "bash")
                once = self.read(self.bashrc)
                self.assertEqual(once.count(b"# >>> cudaenv >>>"), 1)
                self.assertTrue(once.startswith(original))
                self.cudaenv("setup", "bash")
                self.assertEqual(self.read(self.bashrc), once, "setup twice adds the block once")
                self.cudaenv("setup", "--undo")
                self.assertEqual(self.read(self.bashrc), original)
                self.assertEqual(stat.S_IMODE(os.stat(self.bashrc).st_mode), 0o600)
                self.assertFalse(os.path.exists(os.path.join(self.root, "setup.toml")))

    def test_setup_and_undo_missing_profile(self):
        fish = os.path.join(self.home, ".config", "fish", "config.fish")
        self.cudaenv("setup", "fish")
        self.assertIn(b"init fish | source", self.read(fish))
        self.cudaenv("setup", "fish", "--undo")
        self.assertFalse(os.path.exists(fish))
        self.assertFalse(os.path.exists(os.path.join(self.home, ".config")))
        # bash, no .bashrc before
        self.cudaenv("setup", "bash")
        self.assertTrue(os.path.exists(self.bashrc))
        self.cudaenv("setup", "bash", "--undo")
        self.assertFalse(os.path.exists(self.bashrc))
        self.assertEqual(os.listdir(self.home), [])

    def test_user_lines_after_the_block_survive_undo(self):
        with open(self.bashrc, "wb") as f:
            f.write(b"before")
        self.cudaenv("setup", "bash")
        with open(self.bashrc, "ab") as f:
            f.write(b"after\n")
        self.cudaenv("setup", "--undo")
        self.assertEqual(self.read(self.bashrc), b"before\nafter\n")

    def test_default_shell_and_profiles(self):
        zdot = os.path.join(self.tmp, "zdot")
        env = dict(self.env, SHELL="/usr/bin/zsh", ZDOTDIR=zdot)
        self.cudaenv("setup", env=env)
        self.assertIn(b"init zsh", self.read(os.path.join(zdot, ".zshrc")))
        self.cudaenv("setup", "pwsh", env=env)
        ps = os.path.join(self.home, ".config", "powershell", "Microsoft.PowerShell_profile.ps1")
        self.assertIn(b"init pwsh | Out-String", self.read(ps))
        self.cudaenv("setup", "--undo", env=env)
        self.assertFalse(os.path.exists(os.path.join(zdot, ".zshrc")))
        self.assertFalse(os.path.exists(ps))

    def test_cmd_is_windows_only(self):
        p = self.cudaenv("setup", "cmd", check=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("cudaenv: error: cmd exists only on Windows", p.stderr)
        self.assertFalse(os.path.exists(self.bashrc))

    def test_no_home_no_profile(self):
        # HOME unset (a root cron job, `env -i`): ~/.bashrc would be /.bashrc.
        env = {k: v for k, v in self.env.items() if k != "HOME"}
        started = time.time() - 1
        for shell in ("bash", "zsh", "fish", "pwsh"):
            with self.subTest(shell=shell):
                p = self.cudaenv("setup", shell, check=False, env=env)
                self.assertEqual(p.returncode, 1, p.stderr)
                self.assertIn("cudaenv: error: cannot tell where %s's profile is: HOME is not set\n" % shell,
                              p.stderr)
                # Nothing written: no profile under / or the current folder, no store.
                self.assertFalse(os.path.exists("/.bashrc") and os.path.getmtime("/.bashrc") >= started)
                self.assertEqual(sorted(os.listdir(self.tmp)), ["home", "sysbin"])

    def test_real_bash_gets_cudaenv_and_the_shims(self):
        make_toolkit(os.path.join(self.tmp, "cuda-12.4"), "12.4.1", ["nvcc"])
        self.cudaenv("add", os.path.join(self.tmp, "cuda-12.4"))
        self.cudaenv("global", "12.4")
        with open(self.bashrc, "w") as f:
            f.write("export MINE=1\n")
        self.cudaenv("setup", "bash")
        env = dict(self.env, PATH="/usr/bin:/bin")  # a fresh login: no shims on PATH yet
        script = 'type -t cudaenv; echo "PATH=$PATH"; echo "MINE=$MINE"; nvcc; command -v nvcc'
        p = subprocess.run(["bash", "-i", "-c", script], capture_output=True, text=True, env=env,
                           cwd=self.tmp, stdin=subprocess.DEVNULL)
        lines = p.stdout.splitlines()
        self.assertEqual(lines[0], "function", p.stdout + p.stderr)
        self.assertEqual(lines[1].split("=", 1)[1].split(":")[0], self.shims)
        self.assertEqual(lines[2], "MINE=1")
        self.assertEqual(lines[3], "nvcc 12.4.1")
        self.assertEqual(lines[4], os.path.join(self.shims, "nvcc"))
        # A nested bash does not put the shims on PATH twice.
        p = subprocess.run(["bash", "-i", "-c", 'bash -i -c \'echo "$PATH"\''], capture_output=True, text=True,
                           env=env, cwd=self.tmp, stdin=subprocess.DEVNULL)
        self.assertEqual(p.stdout.strip().split(":").count(self.shims), 1, p.stdout)


if __name__ == "__main__":
    if not (CUDAENV and SHIM_PROGRAM):
        sys.exit("set CUDAENV_EXE and CUDAENV_SHIM_EXE (CTest does)")
    unittest.main()
