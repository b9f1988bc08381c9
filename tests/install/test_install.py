#!/usr/bin/env python3
"""Integration tests for `cudaenv install` / `uninstall`: run the built binary
against synthetic NVIDIA archives, mirror folders and an HTTP mirror on
127.0.0.1. Usage: test_install.py <cudaenv binary> [unittest args]"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import archives as A  # noqa: E402
import server  # noqa: E402

BIN = None
HERE = os.path.dirname(os.path.abspath(__file__))


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-install-")
        self.root = os.path.join(self.tmp, "store")
        self.home = os.path.join(self.tmp, "home")
        self.work = os.path.join(self.tmp, "work")
        for d in (self.home, self.work):
            os.makedirs(d)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV")}
        self.env.update({"CUDAENV_ROOT": self.root, "HOME": self.home, "XDG_DATA_HOME": os.path.join(self.home, "d")})

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_cli(self, *args, ok=True, env=None, cwd=None):
        p = subprocess.run([BIN, *args], env=env or self.env, cwd=cwd or self.work, capture_output=True, text=True,
                           timeout=60)
        if ok is True:
            self.assertEqual(p.returncode, 0, f"{args}: {p.stdout}\n{p.stderr}")
        elif ok is False:
            self.assertNotEqual(p.returncode, 0, f"{args} should fail: {p.stdout}\n{p.stderr}")
        return p

    def store_path(self, *parts):
        return os.path.join(self.root, *parts)

    def tmp_leftovers(self):
        d = self.store_path("tmp")
        return sorted(n for n in os.listdir(d) if n != "install.lock") if os.path.isdir(d) else []

    def assert_no_cudnn(self):
        d = self.store_path("cudnn")
        self.assertEqual(os.listdir(d) if os.path.isdir(d) else [], [])


class LocalArchives(Base):
    def test_cudnn8_linux_tar_keeps_symlink_chains(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11)
        p = self.run_cli("install", arc)
        self.assertIn("installed cuDNN 8.9.7 for CUDA 11", p.stdout)
        lib = self.store_path("cudnn", "8.9.7_cuda11", "lib")
        self.assertEqual(os.readlink(os.path.join(lib, "libcudnn.so.8")), "libcudnn.so.8.9.7")
        self.assertEqual(os.readlink(os.path.join(lib, "libcudnn.so")), "libcudnn.so.8")
        self.assertEqual(len([n for n in os.listdir(lib) if n.endswith(".so.8.9.7")]), 7)
        self.assertTrue(os.path.isfile(self.store_path("cudnn", "8.9.7_cuda11", "include", "cudnn_version.h")))
        self.assertEqual(self.tmp_leftovers(), [])
        again = self.run_cli("install", arc)
        self.assertIn("already installed", again.stdout)

    def test_cudnn9_cuda12(self):
        arc = A.cudnn_linux(self.work, "9.8.0.87", 12)
        self.run_cli("install", arc)
        lib = self.store_path("cudnn", "9.8.0_cuda12", "lib")
        self.assertEqual(len([n for n in os.listdir(lib) if n.endswith(".so.9")]), 8)

    def test_windows_zip_refused_on_linux(self):
        arc = A.cudnn_windows(self.work, "8.9.7.29", 11)
        p = self.run_cli("install", arc, ok=False)
        self.assertIn("windows-x86_64", p.stderr)
        self.assertIn("needs linux-x86_64", p.stderr)
        self.assertTrue(p.stderr.startswith("cudaenv: error: "))
        self.assert_no_cudnn()

    def test_cuda_components_merge_into_one_toolkit(self):
        rt = A.cuda_component(self.work, "cuda_cudart", "11.8.89")
        nvcc = A.cuda_component(self.work, "cuda_nvcc", "11.8.89")
        p = self.run_cli("install", rt, nvcc)
        self.assertIn("installed CUDA 11.8", p.stdout)
        tk = self.store_path("toolkits", "11.8")
        self.assertTrue(os.access(os.path.join(tk, "bin", "nvcc"), os.X_OK))
        self.assertEqual(os.readlink(os.path.join(tk, "lib", "libcudart.so.11.0")), "libcudart.so.11.8.89")
        self.assertTrue(os.path.isfile(os.path.join(tk, "licenses", "cuda_nvcc", "LICENSE")))
        vj = json.load(open(os.path.join(tk, "version.json")))
        self.assertEqual(vj["cuda"], {"name": "CUDA SDK", "version": "11.8"})
        self.assertEqual(vj["cuda_nvcc"]["version"], "11.8.89")
        # A later component merges into the same toolkit.
        nvrtc = A.cuda_component(self.work, "cuda_nvrtc", "11.8.89")
        self.run_cli("install", nvrtc)
        vj = json.load(open(os.path.join(tk, "version.json")))
        self.assertEqual(sorted(k for k in vj if k != "cuda"), ["cuda_cudart", "cuda_nvcc", "cuda_nvrtc"])
        self.assertTrue(os.path.isfile(os.path.join(tk, "bin", "nvcc")))
        self.assertEqual(self.tmp_leftovers(), [])
        self.assertIn("11.8", self.run_cli("list").stdout)

    def test_incomplete_cudnn_refused(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11, skip=("cudnn_adv_train",))
        p = self.run_cli("install", arc, ok=False)
        self.assertIn("libcudnn_adv_train.so.8", p.stderr)
        self.assert_no_cudnn()
        self.assertEqual(self.tmp_leftovers(), [])

    def test_header_must_agree_with_name(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11, header_version="8.9.6")
        p = self.run_cli("install", arc, ok=False)
        self.assertIn("8.9.6", p.stderr)
        self.assert_no_cudnn()

    def test_sha256_flag(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11)
        p = self.run_cli("install", arc, "--sha256", "0" * 64, ok=False)
        self.assertIn("sha256 mismatch", p.stderr)
        self.assert_no_cudnn()
        self.assertEqual(self.tmp_leftovers(), [])
        self.run_cli("install", arc, "--sha256", A.sha256(arc).upper())

    def test_bad_name_and_missing_file(self):
        bad = os.path.join(self.work, "cudnn.tar.xz")
        open(bad, "wb").write(b"x")
        p = self.run_cli("install", bad, ok=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("not an NVIDIA archive name", p.stderr)
        p = self.run_cli("install", os.path.join(self.work, "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz"),
                         ok=False)
        self.assertIn("is not a file", p.stderr)

    def test_damaged_archive(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11)
        data = open(arc, "rb").read()
        open(arc, "wb").write(data[: len(data) // 2])
        p = self.run_cli("install", arc, ok=False)
        self.assertRegex(p.stderr, "damaged or truncated|not a readable archive")
        self.assert_no_cudnn()
        self.assertEqual(self.tmp_leftovers(), [])


class MirrorFolder(Base):
    def setUp(self):
        super().setUp()
        self.mirror = A.build_mirror(os.path.join(self.tmp, "mirror"))

    def test_install_spec_from_folder(self):
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", self.mirror)
        tk = self.store_path("toolkits", "11.8.0")
        vj = json.load(open(os.path.join(tk, "version.json")))
        self.assertEqual(vj["cuda"]["version"], "11.8.0")  # the manifest's release label
        self.assertEqual(sorted(k for k in vj if k != "cuda"), ["cuda_cudart", "cuda_nvcc", "libcublas"])
        self.assertTrue(os.path.isdir(self.store_path("cudnn", "8.9.7_cuda11")))
        self.assertFalse(os.path.exists(self.store_path("cudnn", "8.9.7_cuda12")))
        self.assertIn("paired CUDA 11.8.0 with cuDNN 8.9.7", p.stdout)
        self.assertIn("8.9.7", open(self.store_path("config.toml")).read())
        # The shims folder got the session shims, which call cudaenv (not the installer).
        for name in ("cudaenv.cmd", "cudaenv.ps1"):
            text = open(self.store_path("shims", name), encoding="utf-8-sig").read()
            self.assertIn(os.path.basename(BIN), text)
            self.assertNotIn("cudaenv-install", text)
        if os.path.exists(os.path.join(os.path.dirname(BIN), "cudaenv-shim")):
            self.assertTrue(os.path.lexists(self.store_path("shims", "nvcc")))
        # Everything is there now: nothing is installed twice.
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", self.mirror)
        self.assertIn("CUDA 11.8.0 is already installed", p.stdout)
        self.assertIn("already installed", p.stdout.splitlines()[1])
        self.assertEqual(self.tmp_leftovers(), [])

    def test_only_missing_components_and_choice(self):
        self.run_cli("install", "11.8", "--mirror", self.mirror, "--components", "cuda_cudart")
        tk = self.store_path("toolkits", "11.8.0")
        self.assertFalse(os.path.exists(os.path.join(tk, "bin", "nvcc")))
        p = self.run_cli("install", "11.8", "--mirror", self.mirror, "--components", "cuda_cudart,cuda_nvcc")
        self.assertIn("(cuda_nvcc 11.8.89)", p.stdout)
        self.assertTrue(os.path.isfile(os.path.join(tk, "bin", "nvcc")))
        p = self.run_cli("install", "11.8", "--mirror", self.mirror, "--components", "cuda_nope", ok=False)
        self.assertIn("no component 'cuda_nope'", p.stderr)
        self.assertIn("cuda_documentation", p.stderr)

    def test_mirror_from_env_and_config_and_list(self):
        env = dict(self.env, CUDAENV_MIRROR=self.mirror)
        p = self.run_cli("install", "--list", env=env)
        self.assertIn("CUDA toolkits: 11.8.0", p.stdout)
        self.assertIn("cuDNN: 8.9.7 (CUDA 11, 12)", p.stdout)
        os.makedirs(self.root, exist_ok=True)
        with open(self.store_path("config.toml"), "w") as f:
            f.write(f'mirror = "{self.mirror}"\n')
        self.run_cli("install", "11.8")
        self.assertTrue(os.path.isdir(self.store_path("toolkits", "11.8.0")))
        p = self.run_cli("install", "--list", "--mirror", os.path.join(self.tmp, "nowhere"), ok=False)
        self.assertIn("does not exist", p.stderr)
        self.assertEqual(p.stdout, "")  # not even the mirror line before the error
        # A cuDNN manifest that cannot be read: the error, and nothing on stdout.
        with open(os.path.join(self.mirror, "cudnn", "redist", "redistrib_8.9.7.json"), "w") as f:
            f.write("{ not json")
        p = self.run_cli("install", "--list", "--mirror", self.mirror, ok=False)
        self.assertIn("redistrib_8.9.7.json", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_unknown_release(self):
        p = self.run_cli("install", "12.4", "--mirror", self.mirror, ok=False)
        self.assertIn("no CUDA release matching 12.4", p.stderr)
        self.assertIn("11.8.0", p.stderr)

    def test_local_archive_next_to_manifest_uses_release_label_and_hash(self):
        d = os.path.join(self.mirror, "cuda", "redist")
        rt = os.path.join(d, "cuda_cudart", "linux-x86_64", "cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz")
        self.run_cli("install", rt)
        self.assertTrue(os.path.isdir(self.store_path("toolkits", "11.8.0")))
        # A file that differs from the manifest's hash is refused.
        nvcc = os.path.join(d, "cuda_nvcc", "linux-x86_64", "cuda_nvcc-linux-x86_64-11.8.89-archive.tar.xz")
        A.write_tar_xz(nvcc, A.cuda_component_entries("cuda_nvcc", "11.8.89")[1][:3])
        p = self.run_cli("install", nvcc, ok=False)
        self.assertRegex(p.stderr, "manifest says|sha256 mismatch")


class SampleMirror(Base):
    """The demo's sample mirror (.ci/sample_mirror.py) is a mirror install takes as NVIDIA's."""

    def test_demo_pairs_from_the_sample_mirror(self):
        mirror = os.path.join(self.tmp, "sample-mirror")
        subprocess.run([sys.executable, os.path.join(HERE, "..", "..", ".ci", "sample_mirror.py"), mirror], check=True)
        p = self.run_cli("install", "--list", "--mirror", mirror)
        self.assertIn("CUDA toolkits: 12.6.3 11.8.0", p.stdout)
        self.assertIn("cuDNN: 9.8.0 (CUDA 12) 8.9.7 (CUDA 11, 12)", p.stdout)
        for spec, release, nvcc in (("11.8+8.9.7", "11.8", "V11.8.89"), ("12.6+9.8.0", "12.6", "V12.6.85")):
            p = self.run_cli("install", spec, "--mirror", mirror, "--quiet")
            self.assertEqual(p.stderr, "")  # no warnings on a clean run
            tk = self.store_path("toolkits", release + (".0" if release == "11.8" else ".3"))
            out = subprocess.run([os.path.join(tk, "bin", "nvcc"), "--version"], capture_output=True, text=True).stdout
            self.assertIn(f"Cuda compilation tools, release {release}, {nvcc}", out)
        p = self.run_cli("list")
        self.assertIn("11.8.0+8.9.7", p.stdout)
        self.assertIn("12.6.3+9.8.0", p.stdout)
        self.assertTrue(os.path.isdir(self.store_path("cudnn", "9.8.0_cuda12")))


HttpServer = server.HttpServer


class HttpMirror(Base):
    def setUp(self):
        super().setUp()
        self.mirror = A.build_mirror(os.path.join(self.tmp, "mirror"))
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()
        super().tearDown()

    def serve(self, truncate=""):
        s = HttpServer(self.mirror, self.tmp, truncate)
        self.servers.append(s)
        return s

    def test_install_over_http(self):
        s = self.serve()
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", s.url + "/")
        self.assertIn("paired CUDA 11.8.0 with cuDNN 8.9.7", p.stdout)
        self.assertTrue(os.path.isfile(self.store_path("toolkits", "11.8.0", "bin", "nvcc")))
        self.assertTrue(os.path.islink(self.store_path("cudnn", "8.9.7_cuda11", "lib", "libcudnn.so.8")))
        self.assertIn("GET /cuda/redist/ ", s.requests())  # release list from the listing page
        # Downloads go once installed; the store's own caches stay (detection, config.toml's copy).
        kept = {"detected.txt", "config.txt", "host_compiler.txt"}
        self.assertEqual([f for f in os.listdir(self.store_path("cache")) if f not in kept], [])
        p = self.run_cli("install", "--list", "--mirror", s.url)
        self.assertIn("CUDA toolkits: 11.8.0", p.stdout)

    def test_wrong_sha256_in_manifest(self):
        man = os.path.join(self.mirror, "cudnn", "redist", "redistrib_8.9.7.json")
        j = json.load(open(man))
        j["cudnn"]["linux-x86_64"]["cuda11"]["sha256"] = "ab" * 32
        json.dump(j, open(man, "w"))
        s = self.serve()
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", s.url, ok=False)
        self.assertIn("sha256 mismatch", p.stderr)
        self.assert_no_cudnn()
        self.assertNotIn("11.8.0", open(self.store_path("config.toml")).read() if os.path.exists(
            self.store_path("config.toml")) else "")

    def test_truncated_download_resumes(self):
        name = "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz"
        s = self.serve(truncate=name)
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", s.url, ok=False)
        self.assertIn("downloads resume where they stopped", p.stderr)
        part = self.store_path("cache", name + ".part")
        self.assertTrue(os.path.isfile(part))
        have = os.path.getsize(part)
        self.assertGreater(have, 0)
        self.assert_no_cudnn()
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", s.url)
        self.assertIn(f"range=bytes={have}-", s.requests())
        self.assertTrue(os.path.isdir(self.store_path("cudnn", "8.9.7_cuda11")))

    def test_corrupt_partial_download_is_discarded(self):
        name = "cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz"
        os.makedirs(self.store_path("cache"))
        with open(self.store_path("cache", name + ".part"), "wb") as f:
            f.write(b"\0" * 1000)
        s = self.serve()
        p = self.run_cli("install", "11.8+8.9.7", "--mirror", s.url, ok=False)
        self.assertRegex(p.stderr, "sha256 mismatch|not an archive|not a readable archive|damaged")
        self.assert_no_cudnn()
        self.assertFalse(os.path.exists(self.store_path("toolkits", "11.8.0")))  # all or nothing
        # The bad download is dropped; the toolkit's, complete and checked, wait for the next run.
        self.assertEqual([f for f in os.listdir(self.store_path("cache")) if f.startswith("cudnn")], [])
        self.run_cli("install", "11.8+8.9.7", "--mirror", s.url)  # the bad file was dropped; a fresh download works
        self.assertTrue(os.path.isdir(self.store_path("cudnn", "8.9.7_cuda11")))


class Hostile(Base):
    TOP = "cudnn-linux-x86_64-8.9.7.29_cuda11-archive"

    def check_refused(self, entries, expect, zip_=False):
        self.outside = os.path.join(self.tmp, "outside")
        os.makedirs(self.outside, exist_ok=True)
        name = self.TOP + (".zip" if zip_ else ".tar.xz")
        path = os.path.join(self.work, name)
        (A.write_zip if zip_ else A.write_tar_xz)(path, entries)
        p = self.run_cli("install", path, ok=False)
        self.assertIn("refusing", p.stderr)
        self.assertIn(expect, p.stderr)
        self.assertEqual(os.listdir(self.outside), [])
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "evil")))
        self.assert_no_cudnn()
        self.assertEqual(self.tmp_leftovers(), [])

    def good(self):
        return A.cudnn_linux_entries("8.9.7.29", 11)[1]

    def test_dotdot(self):
        self.check_refused(self.good() + [A.Entry(f"{self.TOP}/../../evil", b"x")], "'..'")

    def test_dotdot_backslash_zip(self):
        self.check_refused([A.Entry(f"{self.TOP}/a.txt", b"x"), A.Entry(f"{self.TOP}\\..\\..\\evil", b"x")], "'..'",
                           zip_=True)

    def test_absolute_path(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry(os.path.join(self.tmp, "evil"), b"x")],
                           "absolute path")

    def test_symlink_outside(self):
        self.check_refused(self.good() + [A.Entry(f"{self.TOP}/lib/out", kind="symlink", target="../../../outside")],
                           "outside the archive")

    def test_symlink_absolute(self):
        self.check_refused(self.good() + [A.Entry(f"{self.TOP}/lib/out", kind="symlink", target="/etc")],
                           "outside the archive")

    def test_symlink_dotdot_through_link(self):
        self.check_refused([A.Entry(f"{self.TOP}/lib/here", kind="symlink", target="."),
                            A.Entry(f"{self.TOP}/lib/out", kind="symlink", target="here/../../..")],
                           "outside the archive")

    def test_hardlink_outside(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry(f"{self.TOP}/lib/h", kind="hardlink",
                                                                     target="/etc/passwd")], "hard link")

    def test_hardlink_dotdot(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry(f"{self.TOP}/lib/h", kind="hardlink",
                                                                     target=f"{self.TOP}/../../outside/x")],
                           "hard link")

    def test_device_file(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry(f"{self.TOP}/null", kind="chardev")],
                           "device file")

    def test_fifo(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry(f"{self.TOP}/pipe", kind="fifo")], "FIFO")

    def test_write_through_symlink(self):
        self.check_refused([A.Entry(f"{self.TOP}/include", kind="dir"),
                            A.Entry(f"{self.TOP}/lnk", kind="symlink", target="include"),
                            A.Entry(f"{self.TOP}/lnk/evil.h", b"x")], "through the symlink")

    def test_duplicate_entry(self):
        self.check_refused([A.Entry(f"{self.TOP}/include/cudnn_version.h", A.version_header("8.9.7")),
                            A.Entry(f"{self.TOP}/include/cudnn_version.h", A.version_header("8.9.6"))], "twice")

    def test_outside_top_folder(self):
        self.check_refused([A.Entry(f"{self.TOP}/a", b"x"), A.Entry("other/b", b"x")], "top folder")

    def test_compression_bomb(self):
        self.check_refused([A.Entry(f"{self.TOP}/include/cudnn_version.h", A.version_header("8.9.7")),
                            A.Entry(f"{self.TOP}/lib/zeros", b"\0" * (48 << 20))], "unpack", zip_=True)


class Faults(Base):
    def start_fifo_install(self, arc_bytes, name):
        fifo = os.path.join(self.work, "fifo", name)
        os.makedirs(os.path.dirname(fifo))
        os.mkfifo(fifo)
        proc = subprocess.Popen([BIN, "install", fifo], env=self.env, cwd=self.work, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        writer = open(fifo, "wb")
        return proc, writer

    def staged_files(self):
        n = 0
        for d in self.tmp_leftovers():
            for _, _, files in os.walk(self.store_path("tmp", d)):
                n += len(files)
        return n

    def wait_for(self, cond, what):
        for _ in range(500):
            if cond():
                return
            time.sleep(0.02)
        self.fail("timed out waiting for " + what)

    def test_kill_9_during_extraction(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11, lib_size=1 << 20)
        data = open(arc, "rb").read()
        proc, writer = self.start_fifo_install(data, os.path.basename(arc))
        writer.write(data[: len(data) * 2 // 3])
        writer.flush()
        self.wait_for(lambda: self.staged_files() >= 3, "extraction to start")
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        writer.close()
        self.assert_no_cudnn()  # no partial install in the store
        self.assertNotEqual(self.tmp_leftovers(), [])  # the staging folder the killed run left
        self.run_cli("install", arc)  # the next run cleans up and installs
        self.assertEqual(self.tmp_leftovers(), [])
        self.assertEqual(len(os.listdir(self.store_path("cudnn", "8.9.7_cuda11", "lib"))), 21)

    def test_full_disk(self):
        """A store on a full file system: one clear error, nothing installed, nothing left staged."""
        if os.geteuid() != 0:
            self.skipTest("needs root to mount a small tmpfs")
        os.makedirs(self.root)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", self.root],
                          capture_output=True).returncode != 0:
            self.skipTest("cannot mount a tmpfs here")
        try:
            arc = A.cudnn_linux(self.work, "8.9.7.29", 11, lib_size=1 << 20)  # 7 MiB of libraries > 2 MiB
            p = self.run_cli("install", arc, ok=False)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertTrue(p.stderr.startswith("cudaenv: error: "), p.stderr)
            self.assertRegex(p.stderr.lower(), "disk is full|no space")
            self.assert_no_cudnn()
            self.assertEqual(self.tmp_leftovers(), [])
        finally:
            subprocess.run(["umount", self.root])

    def test_interrupted_replacement_is_put_back(self):
        # A run killed between setting the old toolkit aside and moving the new
        # one in leaves old~toolkits~<v>~<id>: the next run restores it.
        aside = self.store_path("tmp", "old~toolkits~11.8~123")
        os.makedirs(os.path.join(aside, "bin"))
        with open(os.path.join(aside, "bin", "nvcc"), "w") as f:
            f.write("#!/bin/sh\n")
        os.makedirs(self.store_path("tmp", "stage~toolkits~11.8~456", "lib"))
        self.run_cli("install", A.cudnn_linux(self.work, "8.9.7.29", 11))
        self.assertTrue(os.path.isfile(self.store_path("toolkits", "11.8", "bin", "nvcc")))
        self.assertEqual(self.tmp_leftovers(), [])

    def test_two_concurrent_installs(self):
        arc = A.cudnn_linux(self.work, "8.9.7.29", 11, lib_size=1 << 20)
        data = open(arc, "rb").read()
        first, writer = self.start_fifo_install(data, os.path.basename(arc))
        writer.write(data[: len(data) // 2])
        writer.flush()
        self.wait_for(lambda: self.staged_files() >= 1, "the first install to start")
        second = subprocess.Popen([BIN, "install", arc], env=self.env, cwd=self.work, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        err = []
        t = threading.Thread(target=lambda: err.append(second.stderr.readline()))
        t.start()
        t.join(timeout=20)
        self.assertIn("waiting for another cudaenv install", err[0])
        writer.write(data[len(data) // 2:])
        writer.close()
        out1, err1 = first.communicate(timeout=60)
        out2, _ = second.communicate(timeout=60)
        self.assertEqual(first.returncode, 0, err1)
        self.assertEqual(second.returncode, 0)
        self.assertIn("installed cuDNN 8.9.7", out1)
        self.assertIn("already installed", out2)
        self.assertEqual(self.tmp_leftovers(), [])
        self.assertEqual(len(os.listdir(self.store_path("cudnn", "8.9.7_cuda11", "lib"))), 21)


class Uninstall(Base):
    def setUp(self):
        super().setUp()
        self.mirror = A.build_mirror(os.path.join(self.tmp, "mirror"))
        self.run_cli("install", "11.8+8.9.7", "--mirror", self.mirror)

    def test_refuses_active_pair_without_force(self):
        self.run_cli("global", "11.8.0+8.9.7")
        p = self.run_cli("uninstall", "11.8", ok=False)
        self.assertIn("active pair", p.stderr)
        self.assertIn("--force", p.stderr)
        self.assertTrue(os.path.isdir(self.store_path("toolkits", "11.8.0")))
        self.run_cli("uninstall", "11.8", "--force")
        self.assertFalse(os.path.exists(self.store_path("toolkits", "11.8.0")))
        self.assertTrue(os.path.isdir(self.store_path("cudnn", "8.9.7_cuda11")))
        self.assertEqual(self.tmp_leftovers(), [])

    def test_cudnn_only_removes_pin(self):
        p = self.run_cli("uninstall", "11.8+8.9.7", "--cudnn-only")
        self.assertIn("removed cuDNN 8.9.7", p.stdout)
        self.assertFalse(os.path.exists(self.store_path("cudnn", "8.9.7_cuda11")))
        self.assertTrue(os.path.isdir(self.store_path("toolkits", "11.8.0")))
        self.assertNotIn("8.9.7", open(self.store_path("config.toml")).read())

    def test_pair_spec_removes_both(self):
        self.run_cli("uninstall", "11.8+8.9.7")
        self.assertFalse(os.path.exists(self.store_path("toolkits", "11.8.0")))
        self.assertFalse(os.path.exists(self.store_path("cudnn", "8.9.7_cuda11")))
        p = self.run_cli("uninstall", "11.8", ok=False)
        self.assertIn("cudaenv: error:", p.stderr)

    def test_external_folder_is_only_forgotten(self):
        ext = os.path.join(self.tmp, "ext-cuda-12.4")
        os.makedirs(os.path.join(ext, "bin"))
        with open(os.path.join(ext, "bin", "nvcc"), "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(os.path.join(ext, "bin", "nvcc"), 0o755)
        with open(os.path.join(ext, "version.json"), "w") as f:
            json.dump({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}, f)
        self.run_cli("add", ext)
        p = self.run_cli("uninstall", "12.4")
        self.assertIn("forgot CUDA 12.4.1", p.stdout)
        self.assertTrue(os.path.isfile(os.path.join(ext, "bin", "nvcc")))
        self.assertNotIn(ext, open(self.store_path("config.toml")).read())


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv.pop(1))
    warnings.simplefilter("ignore", ResourceWarning)
    unittest.main(warnings="ignore")
