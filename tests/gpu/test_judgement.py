#!/usr/bin/env python3
"""One judgement for every command that decides a pair (issue 37): each
command that picks, installs or activates a pair, for each machine of the
issue's table (--gpu sm_61, --gpu sm_120, --driver 470.256.02, 535.104.05,
580.65.06), against a mirror in the exact shape of NVIDIA's redist server
(NVIDIA's real manifests: CUDA 12.6.3 and 13.0.2, cuDNN 9.8.0 and 9.13.0,
tests/install/redist.py). Every command must refuse what the others refuse,
for the same reason in the same words (gpu/pair_code's judge_pair), and let
through what they let through; `lock` and `sync` refuse what `install` refuses.

usage: test_judgement.py <cudaenv> [unittest args]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "install"))
import redist  # noqa: E402

BIN = None

# The two pairs the real manifests make, by the spec the commands are given.
SPECS = {"12.6": "12.6+9.8.0", "13.0": "13.0+9.13.0"}
PAIRS = {"12.6": "12.6.3+9.8.0", "13.0": "13.0.2+9.13.0"}

# The table: the machine planned for, and per pair the words of the
# refusal every command must give (None: it runs there). The GPU rows name a
# driver that runs everything, the driver rows a GPU both pairs have code
# for, so each row tests one thing.
MACHINES = {
    "--gpu sm_61": (["--gpu", "sm_61", "--driver", "590.44.01"],
                    {"12.6": None, "13.0": "CUDA 13.0's libraries carry SASS for compute capability 7.5"}),
    "--gpu sm_120": (["--gpu", "sm_120", "--driver", "590.44.01"],
                     {"12.6": "cuDNN 9.8 for CUDA 12.6 supports compute capability 5.0-9.0, not 12.0", "13.0": None}),
    "--driver 470.256.02": (["--gpu", "sm_90", "--driver", "470.256.02"],
                            {"12.6": "driver 470.256.02 runs CUDA up to 11.4; 12.6 needs >= 525.60.13",
                             "13.0": "driver 470.256.02 runs CUDA up to 11.4; 13.0 needs >= 580.65.06"}),
    "--driver 535.104.05": (["--gpu", "sm_90", "--driver", "535.104.05"],
                            {"12.6": None, "13.0": "driver 535.104.05 runs CUDA up to 12.2; 13.0 needs >= 580.65.06"}),
    "--driver 580.65.06": (["--gpu", "sm_90", "--driver", "580.65.06"], {"12.6": None, "13.0": None}),
}


def env_of(flags):
    """The same machine through the environment, for the commands that take no flags (use, exec)."""
    return {"CUDAENV_GPU": flags[1], "CUDAENV_DRIVER": flags[3]}


class Judgement(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="cudaenv-judge-")
        cls.mirror = redist.build(os.path.join(cls.tmp, "mirror"))
        cls.env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV") and k != "LD_LIBRARY_PATH"}
        cls.env.update({"HOME": cls.tmp, "CUDAENV_MIRROR": cls.mirror})
        # A store with both pairs, for the commands that judge installed pairs.
        cls.installed = os.path.join(cls.tmp, "installed")
        os.makedirs(cls.installed)
        for spec in SPECS.values():
            cls.cli(["install", spec, "--quiet", "--force"], cls.installed)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def cli(cls, args, root, env=None, cwd=None, ok=True):
        e = dict(cls.env, CUDAENV_ROOT=root, **(env or {}))
        p = subprocess.run([BIN, *args], env=e, cwd=cwd or cls.tmp, capture_output=True, text=True, timeout=300)
        if ok:
            assert p.returncode == 0, f"{args}: {p.stdout}\n{p.stderr}"
        return p

    def fresh(self, name):
        """An empty store and a project folder whose .cudaenv says `spec`."""
        root = os.path.join(self.tmp, name)
        os.makedirs(os.path.join(root, "project"), exist_ok=True)
        return root

    def for_each(self, check):
        """`check(machine, flags, pair, reason)` for every machine of the table and pair, each a subtest."""
        for machine, (flags, expected) in MACHINES.items():
            for pair, reason in expected.items():
                with self.subTest(machine=machine, pair=pair):
                    check(machine, flags, pair, reason)

    def refused(self, p, reason, what):
        """A refusal: non-zero, and the reason in the one judgement's words."""
        self.assertNotEqual(p.returncode, 0, f"{what} did not refuse: {p.stdout}\n{p.stderr}")
        self.assertIn(reason, p.stderr, what)
        self.assertIn("cudaenv: error: ", p.stderr, what)

    def test_list_and_inspect(self):
        def check(machine, flags, pair, reason):
            listed = json.loads(self.cli(["list", "--json", *flags], self.installed).stdout)["pairs"]
            row = {r["spec"]: r["gpu"] for r in listed}[PAIRS[pair]]
            self.assertEqual(row["runs"] == "no", reason is not None, row)
            if reason:
                self.assertIn(reason, row["summary"])
            # The driver in the GPU column, where it decides: the JSON's note, in the table's cell.
            if machine.startswith("--driver") and reason:
                self.assertEqual(row["driver"], "driver %s too old" % flags[3], row)
            if row["driver"] is not None:
                table = self.cli(["list", *flags], self.installed).stdout.splitlines()
                line = next(l for l in table if PAIRS[pair] in l.split())
                self.assertTrue(line.endswith("%s (%s)" % (row["runs"], row["driver"])), line)
            # inspect: exit status 1 here, as the mirror's stand-in libraries are no ELF files.
            out = self.cli(["inspect", PAIRS[pair], "--json", *flags], self.installed, ok=False).stdout
            inspected = json.loads(out)["pair"]
            self.assertEqual(inspected["verdict"] == "no", reason is not None, inspected)
            if reason:
                self.assertIn(reason, inspected["summary"])
        self.for_each(check)

    def test_install_lock_sync_mirror_refuse_alike(self):
        def check(machine, flags, pair, reason):
            root = self.fresh(f"fresh-{machine.replace(' ', '')}-{pair}")
            project = os.path.join(root, "project")
            with open(os.path.join(project, ".cudaenv"), "w") as f:
                f.write(SPECS[pair] + "\n")
            install = self.cli(["install", SPECS[pair], "--dry-run", *flags], root, ok=False)
            lock = self.cli(["lock", *flags], root, cwd=project, ok=False)
            created = os.path.join(root, "copy")
            mirror = self.cli(["mirror", "create", created, SPECS[pair], "--quiet", *flags], root, ok=False)
            if reason:
                self.refused(install, reason, "install")
                self.refused(lock, reason, "lock")
                self.refused(mirror, reason, "mirror create")
                self.assertFalse(os.path.exists(os.path.join(project, "cudaenv.lock")))
                self.assertFalse(os.path.exists(os.path.join(created, "cuda")))  # nothing copied
                # --force proceeds, with the reason as a warning.
                forced = self.cli(["lock", "--force", *flags], root, cwd=project)
                self.assertIn("cudaenv: warning: ", forced.stderr)
                self.assertIn(reason, forced.stderr)
            else:
                for p, what in ((install, "install"), (lock, "lock"), (mirror, "mirror create")):
                    self.assertEqual(p.returncode, 0, f"{what}: {p.stdout}\n{p.stderr}")
                self.assertIn("cudaenv: judged " + PAIRS[pair] + " for " + flags[1], lock.stderr)
            # sync checks the lock (its pair and its [requires]) before anything is fetched.
            sync = self.cli(["sync", "--dry-run", *flags], root, cwd=project, ok=False)
            if reason:
                self.refused(sync, reason, "sync")
                self.assertIn("cudaenv sync --force", sync.stderr)
                self.assertEqual(self.cli(["sync", "--dry-run", "--force", *flags], root, cwd=project).returncode, 0)
            else:
                self.assertEqual(sync.returncode, 0, sync.stderr)
            shutil.rmtree(root, ignore_errors=True)
        self.for_each(check)

    def test_activations_warn_once_for_the_driver(self):
        # use, exec and the hook judge from the caches only: the driver is
        # known to them (machine.txt or CUDAENV_DRIVER); GPU code only once read.
        def check(machine, flags, pair, reason):
            env = env_of(flags)
            warns = reason is not None and machine.startswith("--driver")
            use = self.cli(["use", PAIRS[pair]], self.installed, env=dict(env, CUDAENV_SHELL="bash"))
            run = self.cli(["exec", PAIRS[pair], "--", "sh", "-c", "echo ran"], self.installed, env=env)
            self.assertEqual(run.stdout, "ran\n")
            for p in (use, run):
                self.assertEqual(p.stderr.count("cudaenv: warning: this pair cannot run"), 1 if warns else 0, p.stderr)
                if warns:
                    self.assertIn(reason, p.stderr)
        self.for_each(check)

    def test_doctor(self):
        def check(machine, flags, pair, reason):
            out = json.loads(self.cli(["doctor", "--json", *flags], self.installed, env={"CUDAENV_VERSION": PAIRS[pair]},
                                      ok=False).stdout)
            topics = {f["topic"]: f for f in out["findings"]}
            self.assertEqual(topics["gpu"]["status"] == "fail", reason is not None, topics["gpu"])
            if reason:
                self.assertIn(reason, topics["gpu"]["summary"])
            driver_refuses = reason is not None and machine.startswith("--driver")
            self.assertEqual(topics["driver"]["status"] == "fail", driver_refuses, topics["driver"])
            self.assertEqual(topics["forward_compat"]["status"] == "fail", driver_refuses, topics["forward_compat"])
        self.for_each(check)


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv[1])
    unittest.main(argv=[sys.argv[0]] + sys.argv[2:], verbosity=2)
