"""`list`, `current`, `env` and `export` over one row model, through the
real binary (issues 36.3 and 40 R10, D12).

A store of 2,000 toolkits and 2,000 cuDNN builds (big_store.py): `list`
shows each toolkit once, with its pinned or newest cuDNN; `list --all` every
combination; `list` and `list --json` say the same of every row; `env 12.4`
resolves the pinned pair without listing any. Output shape only: the times
are bench/list_scale.sh's. A store with two installs of one version: the
pair is named alike by `list`, `current`, CUDAENV_VERSION and `export`."""
import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import big_store  # noqa: E402
import storetest  # noqa: E402

N = 2000


def table(text):
    """`list`'s table as rows of cells: the first column is '*' or blank, the others are split at 2+ blanks."""
    lines = text.splitlines()
    header = lines[0]
    first = header.index("SPEC")  # the active column's width + 2
    rows = []
    for line in lines[1:]:
        if not line.strip() or not line.startswith((" ", "*")):
            break  # the notes below the table
        rows.append([line[:first].strip()] + re.split(r"\s{2,}", line[first:].rstrip()))
    return rows


class BigStoreTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.s = storetest.Store("list")
        big_store.build(cls.s.root, N)
        # 12.4.39 pinned to an older cuDNN of its major.
        rc, _, err = cls.s.run("pair", "12.4.39", "9.10.0")
        assert rc == 0, err

    @classmethod
    def tearDownClass(cls):
        cls.s.cleanup()

    def run_ok(self, *args, **kw):
        rc, out, err = self.s.run(*args, **kw)
        self.assertEqual(rc, 0, "%s: %s" % (args, err[-2000:]))
        return out, err

    def test_each_toolkit_once_with_its_default_cudnn(self):
        out, _ = self.run_ok("list")
        rows = table(out)
        self.assertEqual(len(rows), N)
        specs = [r[1] for r in rows]
        self.assertEqual(len(set(specs)), N)
        want = {big_store.toolkit_version(i) for i in range(N)}
        self.assertEqual({r[2] for r in rows}, want)
        for r in rows:
            # The newest cuDNN of every major is 9.99.3; the pin wins for 12.4.39.
            self.assertEqual(r[3], "9.10.0" if r[2] == "12.4.39" else "9.99.3", r)
            self.assertEqual(r[1], "%s+%s" % (r[2], r[3]))
            self.assertEqual(r[4], "store")

    def test_table_and_json_say_the_same(self):
        out, _ = self.run_ok("list")
        js, _ = self.run_ok("list", "--json")
        j = json.loads(js)
        self.assertEqual(j["cudnn_without_toolkit"], [])
        rows = table(out)
        self.assertEqual(len(rows), len(j["pairs"]))
        for cells, p in zip(rows, j["pairs"]):
            self.assertEqual(cells, ["*" if p["active"] else "", p["spec"], p["cuda"]["version"],
                                     p["cudnn"]["version"] if p["cudnn"] else "-", p["where"], p["check"] or "-",
                                     p["gpu"]["runs"]])

    def test_all_combinations_with_all(self):
        out, _ = self.run_ok("list", "--all", "--bare")
        specs = out.splitlines()
        self.assertEqual(len(specs), N * N // 5)
        self.assertEqual(len(set(specs)), len(specs))
        self.assertIn("12.4.39+9.0.0", specs)

    def test_env_and_current_resolve_one_pair(self):
        out, _ = self.run_ok("env", "12.4", "--json")
        j = json.loads(out)["set"]
        self.assertEqual(j["CUDAENV_VERSION"], "12.4.39+9.10.0")
        self.assertEqual(j["CUDA_PATH"], os.path.join(self.s.root, "toolkits", "12.4.39"))
        self.assertEqual(j["CUDNN_PATH"], os.path.join(self.s.root, "cudnn", "9.10.0_cuda12"))
        out, _ = self.run_ok("current", CUDAENV_VERSION="12.4")
        self.assertEqual(out, "12.4.39+9.10.0 (set by CUDAENV_VERSION)\n")
        # `use 12` matches 400 toolkits: it says which it took and names a few others, not 399.
        _, err = self.run_ok("use", "12", CUDAENV_SHELL="bash")
        lines = err.splitlines()
        self.assertTrue(lines[0].startswith("cudaenv: '12' matches 400 CUDA installs; using 12.9.39+9.99.3"), err)
        self.assertLessEqual(len([l for l in lines if "matches" in l or "the other" in l]), 6, err)
        self.assertIn("and 394 others", err)


class OneNameTest(unittest.TestCase):
    """Two installs of CUDA 12.4.0: the adopted one needs an origin in its
    spec, and every door names it the same (issue 40 D12)."""

    def setUp(self):
        self.s = storetest.Store("names")
        storetest.make_toolkit(os.path.join(self.s.root, "toolkits", "12.4.0"), "12.4")
        storetest.make_cudnn(os.path.join(self.s.root, "cudnn", "9.1.0_cuda12"), "9.1.0")
        self.adopted = storetest.make_toolkit(os.path.join(self.s.tmp, "opt", "cuda-12.4"), "12.4")
        rc, _, err = self.s.run("add", self.adopted)
        self.assertEqual(rc, 0, err)

    def tearDown(self):
        self.s.cleanup()

    def test_list_current_env_and_export_agree(self):
        rc, out, err = self.s.run("list", "--json")
        self.assertEqual(rc, 0, err)
        specs = {p["cuda"]["path"]: p["spec"] for p in json.loads(out)["pairs"]}
        spec = specs[self.adopted]
        self.assertEqual(spec, "12.4.0@cuda-12.4+9.1.0")  # the shortest spec that selects it names its folder
        for typed in (spec, "12.4@cuda-12.4"):
            rc, out, err = self.s.run("env", typed, "--json")
            self.assertEqual(rc, 0, err)
            env = json.loads(out)["set"]
            self.assertEqual(env["CUDA_PATH"], self.adopted)
            # CUDAENV_VERSION is the exact pair, whatever was typed.
            self.assertEqual(env["CUDAENV_VERSION"], spec)
            rc, out, err = self.s.run("current", CUDAENV_VERSION=env["CUDAENV_VERSION"])
            self.assertEqual(out, "%s (set by CUDAENV_VERSION)\n" % spec, err)
            rc, out, err = self.s.run("current", "--json", CUDAENV_VERSION=env["CUDAENV_VERSION"])
            self.assertEqual((json.loads(out)["spec"], json.loads(out)["cuda"]["path"]), (spec, self.adopted))
        dotenv = os.path.join(self.s.tmp, "pair.env")
        rc, _, err = self.s.run("export", "dotenv", "12.4@cuda-12.4", "-o", dotenv)
        self.assertEqual(rc, 0, err)
        with open(dotenv) as f:
            self.assertIn("CUDAENV_VERSION=%s\n" % spec, f.read())
        # The store's own install: its versions alone select it.
        rc, out, err = self.s.run("env", "12.4", "--json")
        self.assertEqual(json.loads(out)["set"]["CUDAENV_VERSION"], "12.4.0+9.1.0")

    def test_mirror_alone_names_its_subcommands(self):
        rc, out, err = self.s.run("mirror")
        self.assertEqual(rc, 2, err)
        lines = err.splitlines()
        self.assertEqual(lines[0], "cudaenv: error: `cudaenv mirror` needs a subcommand: create, verify")
        self.assertTrue(lines[1].startswith("hint: create: ") and "verify: " in lines[1], lines)
        rc, out, err = self.s.run()
        self.assertEqual(err.splitlines()[0], "cudaenv: error: no command given")


if __name__ == "__main__":
    unittest.main()
