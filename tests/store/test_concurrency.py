"""Many writers of the store at once, through the real binary: every command
that reads, changes and writes a store file (add, pair, global, uninstall,
discover --add, rehash, check) keeps what the others wrote. Before the store
lock, 20 concurrent `add`s kept 3-10 entries and every process exited 0."""
import os
import sys
import tomllib
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import storetest  # noqa: E402
from storetest import make_cudnn, make_toolkit  # noqa: E402

N = 20


def wait_all(procs):
    """(returncode, stdout, stderr) of each process, in order."""
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        results.append((p.returncode, out, err))
    return results



# NVIDIA's program names (src/data/toolkit_tools.txt), nvcc aside.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "data", "toolkit_tools.txt")) as f:
    TOOLKIT_TOOLS = [t for line in f if line.strip() and not line.startswith("#") for t in line.split()[1:] if t != "nvcc"]

class ConcurrencyTest(unittest.TestCase):
    def setUp(self):
        self.s = storetest.Store("conc")

    def tearDown(self):
        self.s.cleanup()

    def toolkit(self, i, tools=("nvcc",)):
        return make_toolkit(os.path.join(self.s.tmp, "tk", "cuda-12.%d" % i), "12.%d" % i, tools)

    def cudnn(self, i):
        return make_cudnn(os.path.join(self.s.tmp, "cudnn",
                                       "cudnn-linux-x86_64-9.%d.0.70_cuda12-archive" % i), "9.%d.0" % i)

    def all_ok(self, results):
        for rc, out, err in results:
            self.assertEqual(rc, 0, err)
            self.assertNotIn("error", err)
            self.assertNotIn("shims were not updated", err)  # a rehash tripped over another

    def adopt(self, paths):
        for p in paths:
            rc, _, err = self.s.run("add", p)
            self.assertEqual(rc, 0, err)

    def test_add(self):
        tks = [self.toolkit(i) for i in range(N)]
        cds = [self.cudnn(i) for i in range(N // 2)]
        self.all_ok(wait_all([self.s.start("add", p) for p in tks + cds]))
        cfg = self.s.config()
        self.assertEqual(sorted(t["path"] for t in cfg["toolkit"]), sorted(tks))
        self.assertEqual(sorted(c["path"] for c in cfg["cudnn"]), sorted(cds))

    def test_pair(self):
        self.adopt([self.toolkit(i) for i in range(N)] + [self.cudnn(1)])
        self.all_ok(wait_all([self.s.start("pair", "12.%d" % i, "9.1") for i in range(N)]))
        self.assertEqual(self.s.config()["pins"], {"12.%d.0" % i: "9.1.0" for i in range(N)})

    def test_global_among_adds(self):
        self.adopt([self.toolkit(i) for i in range(3)])
        tks = [self.toolkit(i) for i in range(3, 3 + N // 2)]
        procs = []
        for i, p in enumerate(tks):
            procs.append(self.s.start("add", p))
            procs.append(self.s.start("global", "12.%d" % (i % 3)))
        self.all_ok(wait_all(procs))
        cfg = self.s.config()
        self.assertEqual(len(cfg["toolkit"]), 3 + N // 2)
        self.assertIn(cfg["global"], {"12.0", "12.1", "12.2"})

    def test_uninstall_among_adds(self):
        old = [self.toolkit(i) for i in range(N // 2)]
        self.adopt(old)
        new = [self.toolkit(i) for i in range(N // 2, N)]
        procs = [self.s.start("uninstall", "12.%d" % i) for i in range(N // 2)]
        procs += [self.s.start("add", p) for p in new]
        self.all_ok(wait_all(procs))
        self.assertEqual(sorted(t["path"] for t in self.s.config()["toolkit"]), sorted(new))

    def test_discover_add(self):
        roots = []
        for i in range(N // 2):
            root = os.path.join(self.s.tmp, "roots", str(i))
            make_toolkit(os.path.join(root, "cuda-12.%d" % i), "12.%d" % i)
            make_cudnn(os.path.join(root, "cudnn-linux-x86_64-9.%d.0.70_cuda12-archive" % i), "9.%d.0" % i)
            roots.append(root)
        self.all_ok(wait_all([self.s.start("discover", "--add", "--root", r) for r in roots]))
        cfg = self.s.config()
        self.assertEqual(len(cfg["toolkit"]), N // 2)
        self.assertEqual(len(cfg["cudnn"]), N // 2)

    def test_rehash_among_adds(self):
        # Each toolkit brings a tool of its own (one of NVIDIA's, the only names
        # rehash makes shims for): a rehash working from an older config.toml
        # would delete the shims of a toolkit added meanwhile.
        tools = TOOLKIT_TOOLS[: N // 2]
        tks = [self.toolkit(i, ("nvcc", tools[i])) for i in range(N // 2)]
        procs = []
        for p in tks:
            procs.append(self.s.start("add", p))
            procs.append(self.s.start("rehash"))
        self.all_ok(wait_all(procs))
        shims = set(os.listdir(os.path.join(self.s.root, "shims")))
        for t in tools:
            self.assertIn(t, shims)
        self.assertFalse([n for n in shims if "tmp" in n], shims)

    def test_check(self):
        self.adopt([self.toolkit(i) for i in range(N // 2)])
        procs = [self.s.start("check", "12.%d" % i) for i in range(N // 2)]
        for p in procs:
            p.communicate(timeout=600)  # the fake toolkits fail the check; the result is kept all the same
        with open(os.path.join(self.s.root, "checks.toml"), "rb") as f:
            pairs = tomllib.load(f)["pair"]
        self.assertEqual(sorted(p["spec"] for p in pairs), sorted("12.%d.0+none" % i for i in range(N // 2)))


if __name__ == "__main__":
    unittest.main()
