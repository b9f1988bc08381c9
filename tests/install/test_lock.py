#!/usr/bin/env python3
"""Integration tests for `cudaenv lock`, `sync`, `mirror create|verify`, the
plan-first install and the GitHub Action's script, against a mirror in the
exact shape of NVIDIA's (redist.py) served from a folder or by server.py on
127.0.0.1. Usage: test_lock.py <cudaenv binary> <group>"""
import hashlib
import json
import os
import pty
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import redist  # noqa: E402
import test_install as T  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients"))
from support import parse_github_env  # noqa: E402

BIN = None
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
_MIRRORS = {}


def shared_mirror(scale=0.0):
    """The generated mirror, built once per process (tests that damage it copy it)."""
    if scale not in _MIRRORS:
        d = tempfile.mkdtemp(prefix="cudaenv-redist-")
        _MIRRORS[scale] = redist.build(d, scale, cuda=("12.6.3", "13.0.2") if not scale else ("12.6.3",),
                                       cudnn=("9.8.0", "9.13.0") if not scale else ("9.8.0",))
    return _MIRRORS[scale]


def tearDownModule():
    for d in _MIRRORS.values():
        shutil.rmtree(d, ignore_errors=True)


def archive_gets(log):
    return [line for line in log.splitlines() if line.startswith("GET ") and "-archive." in line]


class LockBase(T.Base):
    def setUp(self):
        super().setUp()
        self.project = os.path.join(self.work, "proj")
        os.makedirs(self.project)
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()
        super().tearDown()

    def serve(self, root=None, rate=0, **faults):
        s = T.HttpServer(root or shared_mirror(), self.tmp, rate=rate, **faults)
        self.servers.append(s)
        return s

    def pin_project(self, spec, where=None):
        with open(os.path.join(where or self.project, ".cudaenv"), "w") as f:
            f.write(spec + "\n")

    def cli(self, *args, ok=True, env=None, cwd=None):
        return self.run_cli(*args, ok=ok, env=env, cwd=cwd or self.project)

    def lock_alone(self, url):
        """A folder holding only the project's lock, locked on `url` (a CI checkout's view)."""
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", url)
        ci = os.path.join(self.work, "ci")
        os.makedirs(ci)
        shutil.copy(os.path.join(self.project, "cudaenv.lock"), ci)
        return ci

    def lock_text(self, where=None):
        with open(os.path.join(where or self.project, "cudaenv.lock"), "rb") as f:
            return f.read()

    def store_digest(self):
        """Every path, type, link and byte of the store except the download cache and the lock files."""
        h = hashlib.sha256()
        if not os.path.isdir(self.root):
            return "empty"
        for base, dirs, files in os.walk(self.root):
            dirs.sort()
            rel = os.path.relpath(base, self.root)
            if rel == "cache" or rel.startswith("cache" + os.sep):
                continue
            for name in sorted(dirs + files):
                p = os.path.join(base, name)
                if name in ("install.lock", "config.lock") or os.path.relpath(p, self.root) == "cache":
                    continue
                h.update(os.path.relpath(p, self.root).encode())
                if os.path.islink(p):
                    h.update(b"L" + os.readlink(p).encode())
                elif os.path.isfile(p):
                    h.update(b"F" + open(p, "rb").read())
        return h.hexdigest()

    def assert_one_line_error(self, p, *parts):
        self.assertEqual(p.returncode, 1, p.stderr)
        lines = p.stderr.splitlines()
        self.assertTrue(lines and lines[0].startswith("cudaenv: error: "), p.stderr)
        self.assertTrue(all(not line.startswith("cudaenv: error") for line in lines[1:]), p.stderr)
        for part in parts:
            self.assertIn(part, lines[0])

    def installed_components(self, release="12.6.3"):
        vj = json.load(open(self.store_path("toolkits", release, "version.json")))
        return {k: v["version"] for k, v in vj.items() if k != "cuda"}


class Lock(LockBase):
    def test_deterministic_and_needs_nothing_installed(self):
        s = self.serve()
        self.pin_project("12.6+9.8")
        first = self.cli("lock", "--mirror", s.url)
        self.assertIn("locked 12.6.3+9.8.0 for linux-x86_64 (18 archives", first.stdout)
        text = self.lock_text()
        self.assertEqual(self.cli("lock", "--mirror", s.url).stdout.split(":")[0], "up to date")
        self.assertEqual(self.lock_text(), text)
        self.assertFalse(os.path.exists(self.store_path("toolkits")))  # nothing installed, nothing needed
        # Another machine's store: other pairs installed, other pins, another mirror configured.
        other = dict(self.env, CUDAENV_ROOT=os.path.join(self.tmp, "other-store"))
        self.run_cli("install", "13.0+9.13", "--mirror", s.url, env=other)
        config = os.path.join(self.tmp, "other-store", "config.toml")
        settings = open(config).read()
        open(config, "w").write('global = "13.0"\n' + settings)
        os.remove(os.path.join(self.project, "cudaenv.lock"))
        self.run_cli("lock", "--mirror", s.url, env=other, cwd=self.project)
        self.assertEqual(self.lock_text(), text)
        # Read back with Python's own TOML parser: every archive as the mirror's manifests list it.
        lock = tomllib.loads(text.decode())
        self.assertTrue(text.startswith(b"# cudaenv.lock: the exact CUDA + cuDNN pair of this project, written by"))
        self.assertEqual((lock["format"], lock["spec"], lock["pair"], lock["mirror"]), (1, "12.6+9.8", "12.6.3+9.8.0", s.url))
        self.assertEqual(lock["platforms"], ["linux-x86_64"])
        self.assertEqual(lock["cuda"]["release"], "12.6.3")
        self.assertEqual(len(lock["cuda"]["components"]), 17)
        self.assertEqual(lock["cuda"]["components"]["cuda_nvcc"]["version"], "12.6.85")
        self.assertEqual((lock["cudnn"]["version"], lock["cudnn"]["release"], lock["cudnn"]["cuda_variant"]),
                         ("9.8.0.87", "9.8.0", "12"))
        self.assertEqual(lock["requires"], {"driver_linux": "525.60.13", "driver_windows": "527.41",
                                            "compute_capability_min": "5.0", "compute_capability_max": "9.0"})
        man = json.load(open(os.path.join(shared_mirror(), "cuda", "redist", "redistrib_12.6.3.json")))
        for a in lock["archive"]:
            if a["product"] == "cuda":
                entry = man[a["component"]][a["platform"]]
                self.assertEqual((a["relative_path"], a["sha256"], str(a["size"])),
                                 (entry["relative_path"], entry["sha256"], entry["size"]))
        self.assertEqual(len(lock["archive"]), 18)

    def test_platforms(self):
        s = self.serve()
        self.pin_project("13.0+9.13")
        p = self.cli("lock", "--mirror", s.url, "--platform", "windows-x86_64,linux-x86_64,linux-sbsa")
        self.assertIn("for linux-sbsa, linux-x86_64, windows-x86_64", p.stdout)
        lock = tomllib.loads(self.lock_text().decode())
        per = {}
        for a in lock["archive"]:
            per.setdefault(a["platform"], []).append(a)
        # cuda_culibos exists for Linux only in 13.0.2, visual_studio_integration for Windows only.
        self.assertEqual({k: len(v) for k, v in per.items()}, {"linux-sbsa": 22, "linux-x86_64": 22, "windows-x86_64": 22})
        self.assertTrue(all(a["relative_path"].endswith(".zip") for a in per["windows-x86_64"]))
        self.assertEqual(len(lock["cuda"]["components"]), 22)
        p = self.cli("lock", "--mirror", s.url, "--platform", "linux-x86_64,beos", ok=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("unknown platform 'beos'", p.stderr)

    def test_a_spec_the_mirror_cannot_satisfy(self):
        s = self.serve()
        self.pin_project("13.0+9.8.0")
        p = self.cli("lock", "--mirror", s.url, ok=False)
        self.assert_one_line_error(p, "cuDNN 9.8.0 has no build for CUDA 13 on linux-x86_64")
        self.assertFalse(os.path.exists(os.path.join(self.project, "cudaenv.lock")))
        self.pin_project("14")
        self.assert_one_line_error(self.cli("lock", "--mirror", s.url, ok=False), "no CUDA release matching 14")
        self.pin_project("system")
        self.assertEqual(self.cli("sync", "--mirror", s.url, ok=False).returncode, 2)
        os.remove(os.path.join(self.project, ".cudaenv"))
        self.assert_one_line_error(self.cli("lock", "--mirror", s.url, ok=False), "no .cudaenv in")


    def test_a_plain_lock_keeps_the_locks_platforms(self):
        """Issue 40, D5: a teammate's routine `lock` must not drop the Windows archives."""
        s = self.serve()
        self.pin_project("13.0+9.13")
        self.cli("lock", "--mirror", s.url, "--platform", "linux-x86_64,windows-x86_64,linux-sbsa")
        text = self.lock_text()
        p = self.cli("lock", "--mirror", s.url)
        self.assertIn("up to date: 13.0.2+9.13.0 for linux-sbsa, linux-x86_64, windows-x86_64", p.stdout)
        self.assertEqual(self.lock_text(), text)
        self.cli("lock", "--mirror", s.url, "--platform", "windows-x86_64")
        self.assertIn("for linux-x86_64, windows-x86_64 (", self.cli("lock", "--mirror", s.url).stdout)
        self.assertIn("for linux-x86_64 (", self.cli("lock", "--mirror", s.url, "--platform", "linux-x86_64").stdout)
        self.assertEqual(tomllib.loads(self.lock_text().decode())["platforms"], ["linux-x86_64"])

    def test_a_toolkit_only_spec_locks_as_none_when_no_cudnn_fits(self):
        """Issue 40, D6: `13.0` on a mirror without a cuDNN for CUDA 13 is 13.0.2+none, as activation picks."""
        mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        os.remove(os.path.join(mirror, "cudnn", "redist", "redistrib_9.13.0.json"))  # the one build for CUDA 13
        self.pin_project("13.0")
        p = self.cli("lock", "--mirror", mirror)
        self.assertIn("locked 13.0.2+none for linux-x86_64", p.stdout)
        self.assertNotIn("cuDNN", p.stderr)
        lock = tomllib.loads(self.lock_text().decode())
        self.assertNotIn("cudnn", lock)
        self.assertEqual({a["product"] for a in lock["archive"]}, {"cuda"})
        self.assertIn("synced 13.0.2+none", self.cli("sync", "--quiet").stdout)
        self.assertIn("13.0.2+none", self.cli("current").stdout)
        self.pin_project("12.6")  # where a cuDNN fits, it is taken
        self.assertIn("locked 12.6.3+9.8.0", self.cli("lock", "--mirror", mirror).stdout)

    def test_a_relative_mirror_works_from_anywhere_in_the_project(self):
        """Issue 40, D7: a relative --mirror is stored relative to the lock's folder."""
        src = os.path.join(self.project, "src")
        deep = os.path.join(src, "deep")
        os.makedirs(deep)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", os.path.relpath(shared_mirror(), src), cwd=src)
        self.assertEqual(tomllib.loads(self.lock_text().decode())["mirror"], os.path.relpath(shared_mirror(), self.project))
        self.assertIn("plan for linux-x86_64 from " + shared_mirror() + ":", self.cli("sync", "--dry-run", cwd=deep).stdout)
        self.assertIn("synced 12.6.3+9.8.0", self.cli("sync", "--quiet", cwd=deep).stdout)
        self.pin_project("13.0+9.13")  # locked again by sync, from the lock's own (relative) mirror
        self.assertIn("synced 13.0.2+9.13.0", self.cli("sync", "--quiet", cwd=deep).stdout)
        self.assertEqual(tomllib.loads(self.lock_text().decode())["mirror"], os.path.relpath(shared_mirror(), self.project))


class Adopted(LockBase):
    def test_an_adopted_pair_is_locked_by_its_libraries_and_cannot_be_downloaded(self):
        tk = os.path.join(self.tmp, "opt", "cuda-12.6")
        os.makedirs(os.path.join(tk, "bin"))
        os.makedirs(os.path.join(tk, "lib64"))
        open(os.path.join(tk, "bin", "nvcc"), "w").write("#!/bin/sh\n")
        os.chmod(os.path.join(tk, "bin", "nvcc"), 0o755)
        open(os.path.join(tk, "lib64", "libcudart.so.12.6.77"), "wb").write(b"cudart bytes")
        os.symlink("libcudart.so.12.6.77", os.path.join(tk, "lib64", "libcudart.so.12"))
        open(os.path.join(tk, "lib64", "libcublas.so.12"), "wb").write(b"cublas bytes")
        json.dump({"cuda": {"name": "CUDA SDK", "version": "12.6.3"}}, open(os.path.join(tk, "version.json"), "w"))
        self.cli("add", tk)
        self.pin_project("12.6@cuda-12.6+none")
        p = self.cli("lock")
        self.assertIn("cannot be reproduced by download", p.stderr)
        text = self.lock_text().decode()
        self.assertIn("# This pair was adopted from folders on this machine", text)
        lock = tomllib.loads(text)
        self.assertTrue(lock["adopted"])
        self.assertNotIn("mirror", lock)
        files = {f["path"]: f for f in lock["file"]}
        self.assertEqual(sorted(files), ["cuda/lib64/libcublas.so.12", "cuda/lib64/libcudart.so.12",
                                         "cuda/lib64/libcudart.so.12.6.77"])
        self.assertEqual(files["cuda/lib64/libcudart.so.12"]["sha256"], hashlib.sha256(b"cudart bytes").hexdigest())
        self.assertIn("in sync: 12.6.3+none", self.cli("sync", "--locked").stdout)
        # The same lock on a machine without those folders, and with a library changed.
        other = dict(self.env, CUDAENV_ROOT=os.path.join(self.tmp, "other"))
        p = self.run_cli("sync", "--frozen", env=other, cwd=self.project, ok=False)
        self.assert_one_line_error(p, "records an adopted pair (12.6.3+none", "cannot be reproduced by download")
        open(os.path.join(tk, "lib64", "libcublas.so.12"), "wb").write(b"other bytes")
        p = self.cli("sync", "--locked", ok=False)
        self.assert_one_line_error(p, os.path.join(tk, "lib64", "libcublas.so.12") + " differs from what")


class Sync(LockBase):
    def test_empty_store_then_nothing_to_do(self):
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        lock = tomllib.loads(self.lock_text().decode())
        p = self.cli("sync")  # from the lock's own mirror
        self.assertIn("installed CUDA 12.6.3 (", p.stdout)
        self.assertIn("installed cuDNN 9.8.0 for CUDA 12", p.stdout)
        self.assertIn("paired CUDA 12.6.3 with cuDNN 9.8.0", p.stdout)
        self.assertIn("synced 12.6.3+9.8.0", p.stdout)
        self.assertEqual(self.installed_components(), {k: v["version"] for k, v in lock["cuda"]["components"].items()})
        self.assertTrue(os.path.isfile(self.store_path("cudnn", "9.8.0_cuda12", "lib", "libcudnn.so.9.8.0")))
        self.assertIn("12.6.3+9.8.0", self.cli("current").stdout)
        self.assertEqual(len(archive_gets(s.requests())), 18)
        before, digest = s.requests(), self.store_digest()
        p = self.cli("sync")
        self.assertEqual(p.stdout, f"in sync: 12.6.3+9.8.0 ({os.path.join(self.project, 'cudaenv.lock')})\n")
        self.assertEqual(s.requests(), before)  # not even a manifest
        self.assertEqual(self.store_digest(), digest)
        self.assertEqual(os.listdir(self.store_path("cache")).count("cuda_nvcc-linux-x86_64-12.6.85-archive.tar.xz"), 0)

    def test_locked_fails_after_editing_cudaenv_and_plain_sync_relocks(self):
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        self.cli("sync", "--locked", "--quiet")
        self.pin_project("13.0+9.13")
        digest = self.store_digest()
        p = self.cli("sync", "--locked", ok=False)
        self.assert_one_line_error(p, "cudaenv.lock is out of date: it was locked for '12.6+9.8'", "says '13.0+9.13'")
        self.assertIn("hint: run `cudaenv lock`", p.stderr)
        self.assertEqual(self.store_digest(), digest)
        self.assert_one_line_error(self.cli("install", "--locked", ok=False), "is out of date")
        p = self.cli("sync", "--mirror", s.url)
        self.assertIn("locked 13.0.2+9.13.0 in", p.stdout)
        self.assertIn("synced 13.0.2+9.13.0", p.stdout)
        self.assertIn("13.0.2+9.13.0", self.cli("current").stdout)

    def test_frozen_from_a_lock_alone(self):
        ci = self.lock_alone(self.serve().url)
        p = self.cli("sync", "--frozen", cwd=ci)
        self.assertIn("synced 12.6.3+9.8.0", p.stdout)
        self.assertEqual(open(os.path.join(ci, ".cudaenv")).read(), "12.6+9.8\n")
        self.assertIn("in sync", self.cli("install", "--locked", cwd=ci).stdout)

    def test_store_only_and_print_pair(self):
        # CI with a checkout that holds only the lock: the store changes, the checkout does not,
        # and a script gets the pair alone on stdout (the GitHub Action, issue 40 R8).
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        ci = os.path.join(self.work, "ci")
        os.makedirs(ci)
        shutil.copy(os.path.join(self.project, "cudaenv.lock"), ci)
        p = self.cli("sync", "--frozen", "--store-only", "--print-pair", "--quiet", cwd=ci)
        self.assertEqual(p.stdout, "12.6.3+9.8.0\n")
        self.assertIn("synced 12.6.3+9.8.0", p.stderr)
        self.assertIn("paired CUDA 12.6.3 with cuDNN 9.8.0", p.stderr)  # the pin is the store's
        self.assertEqual(os.listdir(ci), ["cudaenv.lock"])
        before, digest = s.requests(), self.store_digest()
        p = self.cli("sync", "--frozen", "--store-only", "--print-pair", cwd=ci)  # answered by cudaenv itself
        self.assertEqual((p.stdout, p.stderr),
                         ("12.6.3+9.8.0\n", f"in sync: 12.6.3+9.8.0 ({os.path.join(ci, 'cudaenv.lock')})\n"))
        self.assertEqual((s.requests(), self.store_digest(), os.listdir(ci)), (before, digest, ["cudaenv.lock"]))
        # --locked --store-only: the lock must still match .cudaenv.
        self.pin_project("12.6.3+none")
        p = self.cli("sync", "--locked", "--store-only", "--print-pair", ok=False)
        self.assert_one_line_error(p, "is out of date")
        self.pin_project("12.6+9.8")
        self.assertEqual(self.cli("sync", "--locked", "--store-only", "--print-pair").stdout, "12.6.3+9.8.0\n")
        self.assertEqual(self.cli("sync", "--print-pair").stdout, "12.6.3+9.8.0\n")  # plain: it may write the project
        for args, what in ((["--store-only"], "--store-only goes with --frozen or --locked"),
                           (["--frozen", "--print-pair", "--dry-run"], "--print-pair prints the pair a sync made ready")):
            p = self.cli("sync", *args, ok=False, cwd=ci)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(what, p.stderr)
        self.assertEqual(os.listdir(ci), ["cudaenv.lock"])

    def test_a_newer_install_shadowing_the_locked_pair_is_answered_in_cudaenv(self):
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        ext = os.path.join(self.tmp, "cuda-12.6.4")  # adopted, newer: "12.6" would pick it
        os.makedirs(os.path.join(ext, "bin"))
        open(os.path.join(ext, "bin", "nvcc"), "w").write("#!/bin/sh\n")
        os.chmod(os.path.join(ext, "bin", "nvcc"), 0o755)
        json.dump({"cuda": {"name": "CUDA SDK", "version": "12.6.4"}}, open(os.path.join(ext, "version.json"), "w"))
        self.cli("add", ext)
        p = self.cli("sync")
        self.assertIn(f"wrote {os.path.join(self.project, '.cudaenv')} (12.6.3+9.8.0): '12.6+9.8' picks 12.6.4+9.8.0 here",
                      p.stdout)
        self.assertIn("12.6.3+9.8.0", self.cli("current").stdout)
        self.assertIn("in sync", self.cli("sync", "--locked").stdout)  # the exact pair matches the lock too

    def test_a_store_installed_for_another_platform_is_not_in_sync(self):
        """Issue 40, D1: each installed folder records its platform; a store restored from
        another architecture's cache is installed again, not reported in sync."""
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        self.cli("sync", "--quiet")
        folders = (self.store_path("toolkits", "12.6.3"), self.store_path("cudnn", "9.8.0_cuda12"))
        for d in folders:
            self.assertEqual(open(os.path.join(d, ".cudaenv-platform")).read(), "linux-x86_64\n")
        self.assertIn("in sync", self.cli("sync").stdout)
        for d in folders:
            open(os.path.join(d, ".cudaenv-platform"), "w").write("linux-sbsa\n")
        p = self.cli("sync", "--quiet")
        self.assertNotIn("in sync", p.stdout)
        self.assertIn(f"CUDA 12.6.3 in {folders[0]} was installed for linux-sbsa, not linux-x86_64: installing it again",
                      p.stdout)
        self.assertIn(f"cuDNN 9.8.0 in {folders[1]} was installed for linux-sbsa", p.stdout)
        self.assertIn("synced 12.6.3+9.8.0", p.stdout)
        for d in folders:
            self.assertEqual(open(os.path.join(d, ".cudaenv-platform")).read(), "linux-x86_64\n")
        self.assertEqual(self.installed_components(), {k: v["version"] for k, v in
                                                       tomllib.loads(self.lock_text().decode())["cuda"]["components"].items()})
        self.assertIn("in sync", self.cli("sync").stdout)
        self.assertEqual(self.tmp_leftovers(), [])

    def test_a_tampered_archive_fails_and_leaves_the_store_unchanged(self):
        mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", mirror)
        self.run_cli("install", "11.8", "--mirror", T.A.build_mirror(os.path.join(self.tmp, "m11")), "--quiet")
        digest = self.store_digest()
        nvcc = os.path.join(mirror, "cuda", "redist", "cuda_nvcc", "linux-x86_64",
                            "cuda_nvcc-linux-x86_64-12.6.85-archive.tar.xz")
        data = bytearray(open(nvcc, "rb").read())
        data[len(data) // 2] ^= 0xFF
        open(nvcc, "wb").write(bytes(data))
        s = self.serve(mirror)
        p = self.cli("sync", "--mirror", s.url, ok=False)
        self.assert_one_line_error(p, "sha256 mismatch for 'cuda_nvcc-linux-x86_64-12.6.85-archive.tar.xz'",
                                   os.path.join(self.project, "cudaenv.lock"))
        self.assertEqual(self.store_digest(), digest)
        self.assertEqual(self.tmp_leftovers(), [])


class Plan(LockBase):
    def test_an_impossible_pair_downloads_nothing(self):
        s = self.serve()
        p = self.run_cli("install", "13.0+9.8.0", "--mirror", s.url, ok=False)
        self.assert_one_line_error(p, "cuDNN 9.8.0 has no build for CUDA 13 on linux-x86_64 (it has builds for CUDA 11, 12)")
        self.assertEqual(archive_gets(s.requests()), [])
        self.assertFalse(os.path.exists(self.store_path("toolkits")))

    def test_dry_run_prints_the_plan_and_changes_nothing(self):
        s = self.serve()
        p = self.run_cli("install", "12.6+9.8.0", "--mirror", s.url, "--dry-run")
        self.assertIn("plan for linux-x86_64 from " + s.url, p.stdout)
        self.assertIn("  fetch    cuda_cudart 12.6.77 (", p.stdout)
        self.assertIn("  install  CUDA 12.6.3 into " + self.store_path("toolkits", "12.6.3"), p.stdout)
        self.assertIn("  pin      CUDA 12.6.3 with cuDNN 9.8.0", p.stdout)
        self.assertIn("18 archives, ", p.stdout)
        self.assertEqual(archive_gets(s.requests()), [])
        self.assertFalse(os.path.exists(self.root))

    def test_a_failed_cudnn_keeps_no_toolkit(self):
        mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        arc = os.path.join(mirror, "cudnn", "redist", "cudnn", "linux-x86_64", "cudnn-linux-x86_64-9.8.0.87_cuda12-archive.tar.xz")
        open(arc, "ab").write(b"\0")
        p = self.run_cli("install", "12.6+9.8.0", "--mirror", mirror, ok=False)
        self.assert_one_line_error(p, "cudnn-linux-x86_64-9.8.0.87_cuda12-archive.tar.xz")
        self.assertFalse(os.path.exists(self.store_path("toolkits", "12.6.3")))
        self.assertEqual(self.tmp_leftovers(), [])

    def test_parallel_downloads_are_bounded(self):
        s = self.serve(rate=40000)
        self.run_cli("install", "12.6", "--mirror", s.url, "--connections", "3", "--quiet")
        events = []
        for line in s.requests().splitlines():
            if "-archive." in line:
                events.append((float(line.rsplit("t=", 1)[1]), 1 if line.startswith("GET") else -1))
        running = peak = 0
        for _, d in sorted(events):
            running += d
            peak = max(peak, running)
        self.assertLessEqual(peak, 3)  # bounded (END is logged before a response's last bytes)
        self.assertGreaterEqual(peak, 2)  # and parallel
        p = self.run_cli("install", "12.6", "--connections", "65", ok=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--connections must be a number from 1 to 64", p.stderr)
        p = self.run_cli("install", "12.6", env=dict(self.env, CUDAENV_CONNECTIONS="many"), ok=False)
        self.assertIn("CUDAENV_CONNECTIONS must be a number from 1 to 64", p.stderr)

    def test_progress_only_on_a_terminal(self):
        s = self.serve(rate=200000)
        p = self.run_cli("install", "12.6+9.8.0", "--mirror", s.url)
        self.assertEqual(p.stderr, "")
        shutil.rmtree(self.root)
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(self.work)
            os.execve(BIN, [BIN, "install", "12.6+9.8.0", "--mirror", s.url], self.env)
        out = b""
        while True:
            r, _, _ = select.select([fd], [], [], 60)
            if not r:
                break
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        _, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, out.decode(errors="replace"))
        text = out.decode(errors="replace")
        self.assertIn("  total: ", text)
        self.assertIn(" download ", text)
        self.assertIn("archives, ", text)

    def test_a_line_appended_below_pins_is_read_as_the_setting(self):
        # Issue 40 D11: read with a warning naming the line, never a failure;
        # the next write of config.toml puts it above the tables.
        s = self.serve()
        self.run_cli("install", "12.6+9.8.0", "--mirror", s.url, "--quiet")
        config = self.store_path("config.toml")
        with open(config, "a") as f:  # what docs/install.md used to say
            f.write('mirror = "/media/usb/cudaenv-mirror"\n')
        lines = open(config).read().splitlines()
        p = self.run_cli("list")
        self.assertIn(f"cudaenv: warning: {config}:{len(lines)}: `mirror` is below [pins]", p.stderr)
        self.assertIn("move the line above [pins]", p.stderr)
        self.run_cli("pair", "12.6", "9.8.0")
        text = open(config).read()
        self.assertLess(text.index("mirror = "), text.index("[pins]"), text)
        self.assertEqual(tomllib.loads(text)["mirror"], "/media/usb/cudaenv-mirror")
        self.assertNotIn("warning", self.run_cli("list").stderr)


class Kill(LockBase):
    ROUNDS = 4

    def test_sigkill_during_parallel_downloads(self):
        """SIGKILL at random moments leaves nothing or a complete pair; the next sync finishes."""
        mirror = shared_mirror(0.0004)  # archives of up to ~370 KB: downloads take seconds at this rate
        s = self.serve(mirror, rate=150000)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        seed = int(os.environ.get("CUDAENV_TEST_SEED", random.randrange(1 << 30)))
        rnd = random.Random(seed)
        resumed_from = None  # the server log's length when a killed run had left .part files
        for r in range(self.ROUNDS):
            proc = subprocess.Popen([BIN, "sync", "--quiet"], env=self.env, cwd=self.project,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            after = rnd.uniform(0.3, 3.0)
            time.sleep(after)
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            state = self.pair_state()
            parts = [f for f in os.listdir(self.store_path("cache")) if f.endswith(".part")] \
                if os.path.isdir(self.store_path("cache")) else []
            print(f"seed {seed} round {r}: SIGKILL after {after:.2f} s: {state}, {len(parts)} .part files",
                  file=sys.stderr)
            self.assertIn(state, ("nothing", "complete"), f"round {r}, seed {seed}")
            if state == "complete":
                break
            if parts and resumed_from is None:
                resumed_from = len(s.requests().splitlines())
        p = self.cli("sync", "--quiet")
        self.assertIn("12.6.3+9.8.0", p.stdout)
        self.assertEqual(self.pair_state(), "complete", f"seed {seed}")
        self.assertEqual(self.tmp_leftovers(), [])
        if resumed_from is not None:
            later = s.requests().splitlines()[resumed_from:]
            self.assertTrue(any("range=bytes=" in line for line in later), f"no range request (seed {seed})")

    def pair_state(self):
        tk = self.store_path("toolkits", "12.6.3")
        cd = self.store_path("cudnn", "9.8.0_cuda12")
        have = [os.path.isdir(tk), os.path.isdir(cd)]
        if not any(have):
            return "nothing"
        if all(have) and len(self.installed_components()) == 17 and \
                os.path.isfile(os.path.join(cd, "lib", "libcudnn.so.9.8.0")):
            return "complete"
        return f"half: toolkit={have[0]} cudnn={have[1]}"


class MirrorCreate(LockBase):
    def test_create_from_http_then_install_offline_and_verify(self):
        s = self.serve()
        dest = os.path.join(self.tmp, "usb", "cudaenv-mirror")
        p = self.run_cli("mirror", "create", dest, "12.6+9.8", "--mirror", s.url, "--quiet")
        self.assertIn("18 archives", p.stdout)
        self.assertIn("18 copied, 0 there already; 2 manifests", p.stdout)
        self.assertEqual(sorted(os.listdir(os.path.join(dest, "cuda", "redist")))[-1], "redistrib_12.6.3.json")
        self.assertEqual(open(os.path.join(dest, "cudnn", "redist", "redistrib_9.8.0.json"), "rb").read(),
                         open(os.path.join(shared_mirror(), "cudnn", "redist", "redistrib_9.8.0.json"), "rb").read())
        again = self.run_cli("mirror", "create", dest, "12.6+9.8", "--mirror", s.url, "--quiet")
        self.assertIn("0 copied, 18 there already", again.stdout)
        s.stop()
        self.servers.remove(s)
        p = self.run_cli("install", "12.6+9.8.0", "--mirror", dest, "--quiet")
        self.assertIn("paired CUDA 12.6.3 with cuDNN 9.8.0", p.stdout)
        p = self.run_cli("mirror", "verify", dest)
        self.assertIn("checked 18 archives against 2 manifests: 18 match, 0 do not", p.stdout)
        victim = os.path.join(dest, "cuda", "redist", "libcublas", "linux-x86_64",
                              "libcublas-linux-x86_64-12.6.4.1-archive.tar.xz")
        data = bytearray(open(victim, "rb").read())
        data[100] ^= 1
        open(victim, "wb").write(bytes(data))
        p = self.run_cli("mirror", "verify", dest, ok=False)
        self.assertIn("bad: cuda/redist/libcublas/linux-x86_64/libcublas-linux-x86_64-12.6.4.1-archive.tar.xz: sha256 is",
                      p.stdout)
        self.assert_one_line_error(p, "1 archive(s) in", "libcublas-linux-x86_64-12.6.4.1-archive.tar.xz")

    def test_create_from_a_lock_for_two_platforms_resumes(self):
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url, "--platform", "linux-x86_64,windows-x86_64")
        dest = os.path.join(self.tmp, "m")
        rel = "cuda/redist/libcublas/windows-x86_64/libcublas-windows-x86_64-12.6.4.1-archive.zip"
        full = open(os.path.join(shared_mirror(), rel), "rb").read()
        os.makedirs(os.path.dirname(os.path.join(dest, rel)))
        open(os.path.join(dest, rel) + ".part", "wb").write(full[:1000])
        p = self.run_cli("mirror", "create", dest, "--lock", os.path.join(self.project, "cudaenv.lock"), "--quiet")
        self.assertIn("37 archives", p.stdout)
        self.assertIn("for linux-x86_64, windows-x86_64", p.stdout)
        self.assertIn("range=bytes=1000-", s.requests())
        self.assertEqual(open(os.path.join(dest, rel), "rb").read(), full)
        self.assertIn("37 match", self.run_cli("mirror", "verify", dest).stdout)


class BadLock(LockBase):
    def setUp(self):
        super().setUp()
        self.mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", self.mirror)
        self.run_cli("install", "11.8", "--mirror", T.A.build_mirror(os.path.join(self.tmp, "m11")), "--quiet")
        self.lock_file = os.path.join(self.project, "cudaenv.lock")
        self.good = open(self.lock_file).read()
        self.digest = self.store_digest()

    def refused(self, text, *parts, args=("sync", "--frozen")):
        if text is not None:
            open(self.lock_file, "w").write(text)
        p = self.cli(*args, ok=False)
        self.assert_one_line_error(p, *parts)
        self.assertIn("hint: ", p.stderr)
        self.assertEqual(self.store_digest(), self.digest)
        self.assertEqual(self.tmp_leftovers(), [])
        return p

    def test_tampered_hash(self):
        lock = tomllib.loads(self.good)
        sha = next(a["sha256"] for a in lock["archive"] if a["component"] == "cuda_cudart")
        self.refused(self.good.replace(sha, "0" * 64), "sha256 mismatch for 'cuda_cudart-linux-x86_64-12.6.77-archive.tar.xz'",
                     self.lock_file)

    def test_tampered_size(self):
        size = self.archive_size("libcublas")
        self.refused(self.with_size("libcublas", size + 1), "'libcublas-linux-x86_64-12.6.4.1-archive.tar.xz' is "
                     f"{size} bytes, the manifest says {size + 1}", self.lock_file)

    def test_newer_format(self):
        self.refused(self.good.replace("format = 1", "format = 7"), self.lock_file + " was written by a newer cudaenv")

    def test_merge_conflict_markers(self):
        text = self.good.replace('pair = "12.6.3+9.8.0"', '<<<<<<< HEAD\npair = "12.6.3+9.8.0"\n=======\n'
                                 'pair = "12.6.3+9.13.0"\n>>>>>>> theirs')
        line = text.splitlines().index("<<<<<<< HEAD") + 1
        self.refused(text, f"{self.lock_file}:{line}: has merge-conflict markers")
        self.refused(None, "merge-conflict", args=("sync",))

    def test_another_platform_only(self):
        self.cli("lock", "--mirror", self.mirror, "--platform", "windows-x86_64")
        self.refused(None, self.lock_file + " has no archives for linux-x86_64 (it was locked for windows-x86_64)")
        p = self.refused(None, "has no archives for linux-x86_64", args=("sync", "--locked"))
        self.assertIn("cudaenv lock --platform linux-x86_64,windows-x86_64", p.stderr)

    def archive_size(self, component):
        return next(a["size"] for a in tomllib.loads(self.good)["archive"] if a["component"] == component)

    def with_size(self, component, size):
        """The good lock with one archive's size changed. Fake archives share sizes, and sync
        checks them as downloads finish, in no fixed order: editing every equal size would make
        which archive the error names a race."""
        blocks = self.good.split("[[archive]]")
        hits = [i for i, b in enumerate(blocks) if f'component = "{component}"\n' in b]
        self.assertEqual(len(hits), 1, component)
        old = f"size = {self.archive_size(component)}\n"
        self.assertIn(old, blocks[hits[0]])
        blocks[hits[0]] = blocks[hits[0]].replace(old, f"size = {size}\n")
        return "[[archive]]".join(blocks)

    def test_an_endless_size_is_refused_before_any_download(self):
        """Issue 40, R2: a ceiling per archive, then a free-space check, before the first byte."""
        s = self.serve(self.mirror)
        url_args = ("sync", "--frozen", "--mirror", s.url)
        p = self.refused(self.with_size("libcublas", 1099511627776),
                         "'libcublas-linux-x86_64-12.6.4.1-archive.tar.xz' would be 1.0 TiB (1099511627776 bytes), "
                         "above the ceiling of 8.0 GiB for one archive", args=url_args)
        self.assertIn("CUDAENV_MAX_ARCHIVE_SIZE", p.stderr)
        open(self.lock_file, "w").write(self.with_size("libcublas", 1125899906842624))
        p = self.cli(*url_args, env=dict(self.env, CUDAENV_MAX_ARCHIVE_SIZE="2048T"), ok=False)
        self.assert_one_line_error(p, "the downloads need ", " free; nothing was downloaded")
        self.assertEqual(archive_gets(s.requests()), [])
        cache = self.store_path("cache")
        self.assertEqual([f for f in os.listdir(cache) if f.endswith(".part")] if os.path.isdir(cache) else [], [])
        p = self.cli(*url_args, env=dict(self.env, CUDAENV_MAX_ARCHIVE_SIZE="lots"), ok=False)
        self.assertEqual(p.returncode, 2)
        self.assertIn("CUDAENV_MAX_ARCHIVE_SIZE must be a number", p.stderr)

    def test_an_archive_listed_twice_is_refused(self):
        """Issue 40, R3: one duplicate, or 5,000 of them, is refused at once, with no staging folder."""
        first = self.good.index("[[archive]]")
        block = self.good[first:self.good.index("[[archive]]", first + 1)]
        self.refused(self.good + "\n" + block, self.lock_file, "is listed twice")
        other = block.replace('component = "cuda_cccl"', 'component = "cuda_nvcc"')
        self.assertNotEqual(other, block)
        self.refused(self.good.replace(block, block + other, 1), "its file name is listed twice")
        started = time.monotonic()
        self.refused(self.good + "\n" + block * 5000, self.lock_file, "more than 500 archives")
        self.assertLess(time.monotonic() - started, 20)

    def test_a_pair_that_is_not_the_locks_tables_is_refused(self):
        """Issue 40, R7: `pair` is [cuda].release + [cudnn].version; a size under 1 is refused."""
        for pair in ("12.6.3+none", "11.8.0+8.9.7", "12.6.3+9.13.0"):
            self.refused(self.good.replace('pair = "12.6.3+9.8.0"', f'pair = "{pair}"'), self.lock_file,
                         f"'pair' is {pair}, but [cuda] and [cudnn] say 12.6.3+9.8.0")
        self.refused(self.with_size("cuda_cudart", 0), "'size' must be a number of bytes (at least 1)")

    def test_a_mirror_missing_an_archive(self):
        os.remove(os.path.join(self.mirror, "cuda", "redist", "cuda_nvrtc", "linux-x86_64",
                               "cuda_nvrtc-linux-x86_64-12.6.85-archive.tar.xz"))
        self.refused(None, f"the mirror '{self.mirror}' has no 'cuda/redist/cuda_nvrtc/linux-x86_64/")


class HostileMirror(LockBase):
    """Issue 40: mirrors that attack, stall or lack files. Each ends in one clear error or a
    correct install, within seconds (the deadlines are shortened through the environment)."""

    def test_a_listing_bomb_is_read_in_one_pass(self):
        """R1: `redistrib_` and 30,000 digits crashed install --list, lock and mirror create (std::regex)."""
        mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        for product, real in (("cuda", ("12.6.3", "13.0.2")), ("cudnn", ("9.8.0", "9.13.0"))):
            page = "<html><body>\n" + "".join(f'<a href="redistrib_{v}.json">redistrib_{v}.json</a>\n' for v in real)
            page += '<a href="redistrib_' + "1" * 30000 + '.json">x</a>\nredistrib_' + "7." * 200000 + "json\n</body></html>\n"
            open(os.path.join(mirror, product, "redist", "index.html"), "w").write(page)  # what the server lists
        s = self.serve(mirror)
        self.assertIn("CUDA toolkits: 13.0.2 12.6.3\n", self.run_cli("install", "--list", "--mirror", s.url).stdout)
        self.pin_project("12.6+9.8")
        self.assertIn("locked 12.6.3+9.8.0", self.cli("lock", "--mirror", s.url).stdout)
        p = self.run_cli("mirror", "create", os.path.join(self.tmp, "copy"), "12.6+9.8", "--mirror", s.url, "--quiet")
        self.assertIn("18 archives", p.stdout)

    def test_a_locks_own_mirror_is_announced_and_a_configured_one_wins(self):
        """R2: the lock's http(s) mirror is said on stderr, and never used over a configured one."""
        s = self.serve()
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        before = s.requests()
        p = self.cli("sync", "--quiet", env=dict(self.env, CUDAENV_MIRROR=shared_mirror()))
        self.assertIn("synced 12.6.3+9.8.0", p.stdout)
        self.assertEqual(s.requests(), before)  # not one request to the lock's server
        self.assertEqual(p.stderr, "")
        shutil.rmtree(self.root)
        p = self.cli("sync", "--quiet")
        self.assertEqual(p.stderr, f"cudaenv: downloading from {s.url}, named by {os.path.join(self.project, 'cudaenv.lock')}\n")
        self.assertEqual(len(archive_gets(s.requests())), 18)

    def wait_for_part(self, proc):
        cache = self.store_path("cache")
        for _ in range(1000):
            parts = [f for f in os.listdir(cache) if f.endswith(".part") and os.path.getsize(os.path.join(cache, f))] \
                if os.path.isdir(cache) else []
            if parts or proc.poll() is not None:
                return parts
            time.sleep(0.01)
        return []

    def test_a_download_killed_on_a_server_without_ranges_starts_again(self):
        """R4: after kill -9, a server that answers a range with 200 makes the .part start from byte 0."""
        s = self.serve(shared_mirror(0.0004), rate=100000, no_ranges=True)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", s.url)
        proc = subprocess.Popen([BIN, "sync", "--quiet"], env=self.env, cwd=self.project, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        parts = self.wait_for_part(proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        self.assertTrue(parts, "no .part file before the kill")
        p = self.cli("sync", "--quiet")
        self.assertIn("synced 12.6.3+9.8.0", p.stdout)
        self.assertRegex(s.requests(), r"range=bytes=[0-9]+-")  # asked to resume; the server sent it all
        self.assertEqual([f for f in os.listdir(self.store_path("cache")) if f.endswith(".part")], [])

    def test_a_partial_download_resumes_from_python_http_server(self):
        """R4: the server docs/install.md suggests (`python3 -m http.server`) ignores ranges."""
        http = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
                                cwd=shared_mirror(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            port = http.stdout.readline().split(" port ")[1].split()[0]
            url = f"http://127.0.0.1:{port}"
            self.pin_project("12.6+9.8")
            self.cli("lock", "--mirror", url)
            name = "cudnn-linux-x86_64-9.8.0.87_cuda12-archive.tar.xz"
            data = open(os.path.join(shared_mirror(), "cudnn", "redist", "cudnn", "linux-x86_64", name), "rb").read()
            os.makedirs(self.store_path("cache"))
            open(self.store_path("cache", name + ".part"), "wb").write(data[: len(data) // 2])
            self.assertIn("synced 12.6.3+9.8.0", self.cli("sync", "--quiet").stdout)
            self.assertTrue(os.path.isfile(self.store_path("cudnn", "9.8.0_cuda12", "lib", "libcudnn.so.9.8.0")))
        finally:
            http.terminate()
            http.wait(timeout=10)

    def test_a_listing_that_never_ends_meets_the_deadline(self):
        """R6: a listing trickled above libcurl's low-speed limit ends at CUDAENV_HTTP_TIMEOUT."""
        s = self.serve(endless_listing=4000)
        started = time.monotonic()
        p = self.run_cli("install", "--list", "--mirror", s.url, env=dict(self.env, CUDAENV_HTTP_TIMEOUT="2"), ok=False)
        self.assertLess(time.monotonic() - started, 15)
        self.assert_one_line_error(p, f"cannot download {s.url}/cuda/redist/: not complete after 2 s")
        self.assertIn("CUDAENV_HTTP_TIMEOUT", p.stderr)
        self.assertEqual(p.stdout, "")

    def test_an_archive_below_the_minimum_rate_stops_and_resumes_later(self):
        """R6: an archive must average CUDAENV_MIN_RATE once CUDAENV_HTTP_TIMEOUT has passed."""
        mirror = shared_mirror(0.0004)
        s = self.serve(mirror, rate=20000)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", mirror)
        env = dict(self.env, CUDAENV_HTTP_TIMEOUT="2", CUDAENV_MIN_RATE="1M")
        started = time.monotonic()
        p = self.cli("sync", "--mirror", s.url, env=env, ok=False)
        self.assertLess(time.monotonic() - started, 20)
        self.assert_one_line_error(p, "-archive.tar.xz averaged ", " s, under the minimum of 1.0 MiB/s")
        self.assertIn("CUDAENV_MIN_RATE", p.stderr)
        self.assertTrue([f for f in os.listdir(self.store_path("cache")) if f.endswith(".part")])  # kept, to resume
        self.assertFalse(os.path.exists(self.store_path("toolkits", "12.6.3")))

    def test_a_file_missing_on_an_http_mirror_says_so(self):
        """D10: a 404 says the mirror lacks the file, not "run the command again"."""
        mirror = shutil.copytree(shared_mirror(), os.path.join(self.tmp, "mirror"), symlinks=True)
        self.pin_project("12.6+9.8")
        self.cli("lock", "--mirror", mirror)
        rel = "cuda/redist/cuda_nvrtc/linux-x86_64/cuda_nvrtc-linux-x86_64-12.6.85-archive.tar.xz"
        os.remove(os.path.join(mirror, rel))
        s = self.serve(mirror)
        p = self.cli("sync", "--mirror", s.url, ok=False)
        self.assert_one_line_error(p, f"{s.url}/{rel} is missing on the mirror (HTTP 404)")
        self.assertNotIn("run the command again", p.stderr)
        self.assertIn("hint: the mirror lacks this file", p.stderr)
        p = self.run_cli("install", "12.6", "--mirror", s.url + "/elsewhere", ok=False)
        self.assert_one_line_error(p, f"{s.url}/elsewhere/cuda/redist/ is missing on the mirror (HTTP 404)")


class Cli(LockBase):
    """Issue 40, D12: the rough edges of install, lock and sync."""

    def test_install_frozen_installs_the_lock_as_it_is(self):
        ci = self.lock_alone(self.serve().url)
        self.assertIn("synced 12.6.3+9.8.0", self.cli("install", "--frozen", "--quiet", cwd=ci).stdout)
        self.assertIn("in sync", self.cli("install", "--frozen", cwd=ci).stdout)
        for args, says in ((("install", "--frozen", "--locked"), "--locked and --frozen exclude each other"),
                           (("install", "12.6", "--frozen"), "--frozen installs the project's cudaenv.lock: give no spec")):
            p = self.cli(*args, cwd=ci, ok=False)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(says, p.stderr)

    def test_connections_0_is_refused(self):
        self.pin_project("12.6+9.8")
        for args in (("install", "12.6"), ("sync",), ("mirror", "create", os.path.join(self.tmp, "m"), "12.6")):
            p = self.cli(*args, "--connections", "0", ok=False)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("--connections must be a number from 1 to 64", p.stderr)

    def test_a_platform_list_with_an_empty_name_is_refused(self):
        self.pin_project("12.6+9.8")
        for args in (("lock", "--platform", "linux-x86_64,"),
                     ("mirror", "create", os.path.join(self.tmp, "m"), "12.6", "--platform", ",linux-x86_64")):
            p = self.cli(*args, "--mirror", shared_mirror(), ok=False)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("has an empty platform name", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.project, "cudaenv.lock")))

    def test_lock_says_it_reads_cudaenv(self):
        self.pin_project("12.6+9.8")
        p = self.cli("lock", "12.6+9.8", ok=False)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stderr.splitlines()[0],
                         "cudaenv: error: `cudaenv lock` takes no spec ('12.6+9.8'): it locks the spec of the project's .cudaenv")
        self.assertIn("`cudaenv local 12.6+9.8` writes it there", p.stderr)
        self.assertNotIn("not expected", p.stderr)


class Action(LockBase):
    """action/cudaenv-action.sh, the steps of action.yml, as a Linux runner runs
    them; what it writes to $GITHUB_OUTPUT and $GITHUB_ENV read back by GitHub's
    rules (tests/clients/support.py). tests/windows/action_win.py: Windows."""
    SCRIPT = os.path.join(ROOT, "action", "cudaenv-action.sh")

    def action(self, step, store, ok=True, **inputs):
        out = os.path.join(self.tmp, f"out-{step}-{time.time_ns()}")
        env = dict(self.env, CUDAENV_ROOT=store, GITHUB_OUTPUT=out, GITHUB_ENV=self.github_env(),
                   RUNNER_TEMP=os.path.join(self.tmp, "runner"), RUNNER_OS="Linux", RUNNER_ARCH="X64",
                   INPUT_CUDAENV=BIN)
        env.update({k: v for k, v in inputs.items() if v is not None})
        p = subprocess.run(["bash", self.SCRIPT, step], env=env, cwd=self.work, capture_output=True, text=True,
                           timeout=120)
        if ok:
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        outputs = parse_github_env(open(out).read()) if os.path.exists(out) else {}
        return p, outputs

    def github_env(self):
        return os.path.join(self.tmp, "github-env")

    def run_action(self, store, **inputs):
        _, keys = self.action("key", store, **inputs)
        p, outs = self.action("install", store, CUDAENV_ACTION_PROJECT=keys["project"], **inputs)
        return keys, outs, p

    def later_step(self, *args):
        """`cudaenv ARGS` in a later step of the job: the environment the runner makes from $GITHUB_ENV."""
        env = {k: v for k, v in self.env.items() if k != "CUDAENV_ROOT"}
        env.update(parse_github_env(open(self.github_env()).read()))
        return self.run_cli(*args, env=env)

    def lock_alone(self, s, where=None):
        """A checkout that holds only cudaenv.lock (locked from a .cudaenv that is then removed)."""
        where = where or self.project
        os.makedirs(where, exist_ok=True)
        self.pin_project("12.6+9.8", where)
        self.cli("lock", "--mirror", s.url, cwd=where)
        os.remove(os.path.join(where, ".cudaenv"))
        return os.path.join(where, "cudaenv.lock")

    def test_cold_then_warm_from_a_lock(self):
        s = self.serve()
        lock = self.lock_alone(s)
        store, cache = os.path.join(self.tmp, "store-ci"), os.path.join(self.tmp, "actions-cache")
        keys, outs, _ = self.run_action(store, INPUT_LOCK=lock)
        self.assertRegex(keys["key"], r"^cudaenv-Linux-X64-[0-9a-f]{32}$")
        self.assertEqual((keys["store"], keys["project"]), (store, self.project))
        self.assertEqual(outs, {"pair": "12.6.3+9.8.0"})
        self.assertEqual(len(archive_gets(s.requests())), 18)
        self.assertEqual(os.listdir(self.project), ["cudaenv.lock"])  # nothing written into the checkout
        github_env = parse_github_env(open(self.github_env()).read())
        self.assertEqual(github_env["CUDAENV_ROOT"], store)
        self.assertEqual(github_env["CUDA_PATH"], os.path.join(store, "toolkits", "12.6.3"))
        self.assertEqual(github_env["CUDAENV_VERSION"], "12.6.3+9.8.0")
        self.assertTrue(github_env["PATH"].startswith(os.path.join(store, "toolkits", "12.6.3", "bin") + ":"))
        # A later step finds the store and the pair through the job's environment alone.
        self.assertTrue(self.later_step("current").stdout.startswith("12.6.3+9.8.0 (set by"))
        self.assertIn("12.6.3+9.8.0", self.later_step("list").stdout)
        self.assertEqual(self.later_step("which", "nvcc").stdout.strip(),
                         os.path.join(store, "toolkits", "12.6.3", "bin", "nvcc"))
        self.assertEqual(self.later_step("exec", "12.6.3+9.8.0", "--", "sh", "-c", 'printf %s "$CUDNN_PATH"').stdout,
                         os.path.join(store, "cudnn", "9.8.0_cuda12"))
        shutil.copytree(store, cache, symlinks=True)  # actions/cache/save
        shutil.rmtree(store)
        shutil.copytree(cache, store, symlinks=True)  # a later job: actions/cache/restore, same key
        before = s.requests()
        keys2, outs2, p = self.run_action(store, INPUT_LOCK=lock)
        self.assertEqual(keys2, keys)
        self.assertEqual(outs2, {"pair": "12.6.3+9.8.0"})
        self.assertEqual(s.requests(), before)  # the warm run downloads nothing, not even a manifest
        self.assertIn("in sync: 12.6.3+9.8.0", p.stderr)
        self.assertEqual(os.listdir(self.project), ["cudaenv.lock"])
        # Another OS or architecture never restores this store (issue 40, D1).
        for os_name, arch in (("Linux", "ARM64"), ("Windows", "X64")):
            _, other = self.action("key", store, INPUT_LOCK=lock, RUNNER_OS=os_name, RUNNER_ARCH=arch)
            self.assertEqual(other["key"], f"cudaenv-{os_name}-{arch}-" + keys["key"].rsplit("-", 1)[1])

    def test_from_a_spec(self):
        s = self.serve()
        store = os.path.join(self.tmp, "store-ci")
        keys, outs, _ = self.run_action(store, INPUT_SPEC="13.0+9.13", INPUT_MIRROR=s.url)
        self.assertEqual(outs["pair"], "13.0.2+9.13.0")
        self.assertEqual(keys["project"], os.path.join(self.tmp, "runner", "cudaenv-action", "project"))
        again, _ = self.action("key", store, INPUT_SPEC="13.0+9.13", INPUT_MIRROR=s.url)
        self.assertIn(keys["key"], again.stdout)
        # A second use in the same job with another spec locks afresh.
        keys2, outs2, _ = self.run_action(store, INPUT_SPEC="12.6+9.8", INPUT_MIRROR=s.url)
        self.assertEqual(outs2["pair"], "12.6.3+9.8.0")
        self.assertNotEqual(keys2["key"], keys["key"])
        self.assertEqual(os.listdir(self.work), ["proj"])  # the workspace is untouched
        env = dict(self.env, CUDAENV_ROOT=store, INPUT_CUDAENV=BIN, GITHUB_OUTPUT=os.devnull)
        p = subprocess.run(["bash", self.SCRIPT, "key"], env=env, capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("give 'spec' or 'lock'", p.stderr)

    def test_a_relative_mirror_folder_is_the_workspace_s(self):
        # The workflow names folders from the workspace; the steps run cudaenv in the project's folder.
        mirror = os.path.join(self.work, "vendor", "mirror")
        shutil.copytree(shared_mirror(), mirror)
        store = os.path.join(self.tmp, "store-ci")
        _, outs, _ = self.run_action(store, INPUT_SPEC="12.6+9.8", INPUT_MIRROR="vendor/mirror")
        self.assertEqual(outs["pair"], "12.6.3+9.8.0")

    def test_hostile_lock_paths(self):
        s = self.serve()
        # A line feed in the lock's folder: under `printf '%s=%s\n'` the rest of
        # the name became outputs of its own (a second key=, a pair=).
        folder = os.path.join(self.work, "proj\nkey=evil\npair=11.8.0+8.9.7")
        lock = self.lock_alone(s, folder)
        store = os.path.join(self.tmp, "store-ci")
        keys, outs, _ = self.run_action(store, INPUT_LOCK=lock)
        self.assertEqual(sorted(keys), ["key", "project", "store"])
        self.assertEqual(keys["project"], folder)
        self.assertRegex(keys["key"], r"^cudaenv-Linux-X64-[0-9a-f]{32}$")
        self.assertEqual(outs, {"pair": "12.6.3+9.8.0"})
        self.assertEqual(sorted(os.listdir(folder)), ["cudaenv.lock"])
        github_env = parse_github_env(open(self.github_env()).read())
        self.assertEqual((github_env["CUDAENV_VERSION"], github_env["CUDAENV_ROOT"]), ("12.6.3+9.8.0", store))
        # A carriage return, which GitHub's reader would cut from a value's end: refused, nothing written.
        cr = os.path.join(self.work, "proj\r")
        shutil.copytree(folder, cr)
        open(self.github_env(), "w").close()
        p, outputs = self.action("key", store, ok=False, INPUT_LOCK=os.path.join(cr, "cudaenv.lock"))
        self.assertEqual(p.returncode, 1)
        self.assertIn("::error::cudaenv action: project holds a carriage return", p.stderr)
        self.assertEqual(outputs, {})
        p, _ = self.action("install", store, ok=False, CUDAENV_ACTION_PROJECT=cr, CUDAENV_ROOT=store + "\r")
        self.assertIn("carriage return", p.stderr)
        self.assertEqual(open(self.github_env()).read(), "")
        # A store with a line feed would be two paths to actions/cache: refused.
        p, outputs = self.action("key", store + "\nx", ok=False, INPUT_LOCK=lock)
        self.assertIn("actions/cache reads one path a line", p.stderr)
        self.assertEqual(outputs, {})

    def test_the_pair_is_cudaenv_s_reading_of_the_lock(self):
        s = self.serve()
        lock = self.lock_alone(s)
        text = open(lock).read()
        self.assertIn('\npair = "12.6.3+9.8.0"\n', text)
        # Tabs and a trailing comment on the pair line, a second `pair =` line
        # inside a multi-line string: TOML, which sed read wrongly or not at all.
        text = text.replace('\npair = "12.6.3+9.8.0"\n',
                            '\npair\t=\t"12.6.3+9.8.0"\t# the exact pair\n'
                            'note = """\npair = "11.8.0+8.9.7"\n"""\n')
        self.assertEqual(tomllib.loads(text)["pair"], "12.6.3+9.8.0")
        open(lock, "w").write(text)
        _, outs, _ = self.run_action(os.path.join(self.tmp, "store-ci"), INPUT_LOCK=lock)
        self.assertEqual(outs, {"pair": "12.6.3+9.8.0"})
        self.assertEqual(parse_github_env(open(self.github_env()).read())["CUDAENV_VERSION"], "12.6.3+9.8.0")


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv.pop(1))
    T.BIN = BIN
    warnings.simplefilter("ignore", ResourceWarning)
    unittest.main(warnings="ignore")
