#!/usr/bin/env python3
"""`cudaenv inspect`, the GPU verdicts and the machine's GPUs, against real
programs: Debian's real NVIDIA libraries with cuobjdump as the oracle, the same
fatbin bytes in a PE file built by mingw-w64, crafted fatbins in real ELF
files, fake driver libraries for `cudaenv-probe __gpus`, and the sample mirror
for install. No GPU needed.

usage: test_gpu.py <cudaenv> <fake driver folder> [unittest args]"""
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", ".ci"))
import craft  # noqa: E402
import sample_mirror  # noqa: E402

BIN = None
DRIVER = None
LOADER = None  # tests/trace's program that dlopens its arguments
LIBS = "usr/lib/x86_64-linux-gnu"


def nvidia_debs():
    p = subprocess.run(["bash", os.path.join(HERE, "nvidia_debs.sh")], capture_output=True, text=True)
    if p.returncode == 77:
        raise unittest.SkipTest(p.stderr.strip())
    if p.returncode != 0:
        raise AssertionError(p.stderr)
    return p.stdout.strip()


def cuobjdump_counts(cuobjdump, lib, kind):
    """{"sm_90": n, ...} from `cuobjdump --list-elf` / `--list-ptx` (PTX named sm_XX.ptx by cuobjdump)."""
    p = subprocess.run([cuobjdump, f"--list-{kind}", lib], capture_output=True, text=True)
    if "does not contain device code" in p.stdout + p.stderr:
        return {}
    assert p.returncode == 0, p.stderr
    counts = collections.Counter()
    for line in p.stdout.splitlines():
        m = re.search(r"\.(sm_\d+a?)\.(cubin|ptx)$", line.strip())
        if m:
            counts[m.group(1)] += 1
    return dict(counts)


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cudaenv-gpu-")
        self.root = os.path.join(self.tmp, "store")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("CUDAENV") and k != "LD_LIBRARY_PATH"}
        self.env.update({"CUDAENV_ROOT": self.root, "HOME": self.tmp})
        os.makedirs(self.root)  # caches are kept only in a store that exists

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_cli(self, *args, ok=True, env=None):
        p = subprocess.run([BIN, *args], env=env or self.env, cwd=self.tmp, capture_output=True, text=True, timeout=300)
        if ok:
            self.assertEqual(p.returncode, 0, f"{args}: {p.stdout}\n{p.stderr}")
        return p

    def inspect(self, path, *extra, ok=True):
        gpu = [] if "--gpu" in extra else ["--gpu", "sm_90"]
        p = self.run_cli("inspect", path, "--json", *gpu, *extra, ok=ok)
        return json.loads(p.stdout)

    @staticmethod
    def lists(file_json):
        """What cuobjdump lists: the fatbin sections, not the fatbins found in data sections."""
        def registered(kind):
            data = file_json["in_data_sections"][kind]
            return {k: v - data.get(k, 0) for k, v in file_json[kind].items() if v - data.get(k, 0)}
        sass = registered("sass")
        ptx = {k.replace("compute_", "sm_"): v for k, v in registered("ptx").items()}
        return sass, ptx


class Oracle(Base):
    """Every ELF library of Debian's CUDA 11.8 packages: the reader's lists equal cuobjdump's."""

    def test_every_library_equals_cuobjdump(self):
        root = nvidia_debs()
        cuobjdump = os.path.join(root, "usr/bin/cuobjdump")
        libs = sorted(os.path.join(root, LIBS, n) for n in os.listdir(os.path.join(root, LIBS))
                      if not os.path.islink(os.path.join(root, LIBS, n)))
        self.assertEqual([os.path.basename(l) for l in libs],
                         ["libcublas.so.11.11.3.6", "libcublasLt.so.11.11.3.6", "libcudart.so.11.8.89",
                          "libcufft.so.10.9.0.58", "libcufftw.so.10.9.0.58"])
        for lib in libs:
            with self.subTest(lib=os.path.basename(lib)):
                f = self.inspect(lib)["files"][0]
                self.assertIsNone(f["problem"])
                sass, ptx = self.lists(f)
                self.assertEqual(sass, cuobjdump_counts(cuobjdump, lib, "elf"))
                self.assertEqual(ptx, cuobjdump_counts(cuobjdump, lib, "ptx"))
        cublas = self.inspect(os.path.join(root, LIBS, "libcublas.so.11.11.3.6"))["files"][0]
        self.assertEqual(list(cublas["sass"]), ["sm_35", "sm_50", "sm_60", "sm_61", "sm_70", "sm_75", "sm_80", "sm_86",
                                                "sm_90"])
        self.assertEqual(cublas["ptx_isa"], "7.8")
        cudart = self.inspect(os.path.join(root, LIBS, "libcudart.so.11.8.89"))["files"][0]
        self.assertEqual((cudart["sass"], cudart["ptx"], cudart["runs"]), ({}, {}, []))  # no device code: an empty answer

    def test_a_stub_without_kernels_runs_anywhere(self):
        """cuFFTW carries one sm_52 entry and no kernel (cuFFT does its work): cuobjdump -sass
        shows the entry and no function in it. It is listed, and judged "no GPU code", not "no"."""
        root = nvidia_debs()
        lib = os.path.join(root, LIBS, "libcufftw.so.10.9.0.58")
        sass = subprocess.run([os.path.join(root, "usr/bin/cuobjdump"), "-sass", lib], capture_output=True,
                              text=True, check=True).stdout
        self.assertIn("code for sm_52", sass)
        self.assertNotIn("Function :", sass)
        f = self.inspect(lib)["files"][0]
        self.assertEqual((f["sass"], f["sass_without_kernels"], f["ptx"]), ({"sm_52": 1}, {"sm_52": 1}, {}))
        self.assertEqual(f["runs"], [{"gpu": "sm_90", "runs": "-",
                                      "why": "no GPU code: only sm_52 entries without kernels"}])
        # A library with kernels keeps its verdict: cuBLAS has no such entry, cuBLASLt a few beside its code.
        cublas = self.inspect(os.path.join(root, LIBS, "libcublas.so.11.11.3.6"), "--gpu", "sm_52")["files"][0]
        self.assertEqual((cublas["sass_without_kernels"], cublas["runs"][0]["runs"]), ({}, "native"))
        lt = self.inspect(os.path.join(root, LIBS, "libcublasLt.so.11.11.3.6"), "--gpu", "sm_86")["files"][0]
        self.assertTrue(all(n <= lt["sass"][a] for a, n in lt["sass_without_kernels"].items()))
        self.assertEqual(lt["runs"][0]["why"], "sm_86 SASS")

    def test_pe_file_with_the_same_fatbin_bytes(self):
        root = nvidia_debs()
        dll = craft.mingw_dll(self.tmp)
        if not dll:
            self.skipTest("no mingw-w64 cross compiler")
        lib = os.path.join(root, LIBS, "libcublas.so.11.11.3.6")
        blob = os.path.join(self.tmp, "cublas.fatbin")
        subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", lib, blob], check=True)
        pe = craft.into_pe(blob, dll, os.path.join(self.tmp, "cublas_fatbin.dll"))
        f = self.inspect(pe)["files"][0]
        self.assertEqual(f["format"], "pe")
        cuobjdump = os.path.join(root, "usr/bin/cuobjdump")
        self.assertEqual(self.lists(f), (cuobjdump_counts(cuobjdump, lib, "elf"), cuobjdump_counts(cuobjdump, lib, "ptx")))
        # Not trusted by name: the same bytes in a section called anything are found by their magic.
        other = craft.into_pe(blob, dll, os.path.join(self.tmp, "renamed.dll"), section=".rdata2")
        self.assertEqual(self.lists(self.inspect(other)["files"][0]), self.lists(f))


class Crafted(Base):
    """Fatbins written here, in real ELF files made by objcopy."""

    def elf(self, name, *fatbins):
        return craft.into_elf(b"".join(fatbins), os.path.join(self.tmp, name))

    def test_kinds_suffixes_compression_and_several_fatbins(self):
        lib = self.elf("mixed", craft.fatbin([craft.entry(craft.ELF_KIND, 90, craft.F64 | craft.ARCH_SPECIFIC),
                                              craft.entry(craft.ELF_KIND, 100, craft.F64 | craft.ZSTD | craft.ARCH_SPECIFIC),
                                              craft.entry(craft.PTX_KIND, 120, craft.F64 | craft.LZ4)]),
                       craft.fatbin([craft.entry(craft.ELF_KIND, 80)]))
        f = self.inspect(lib)["files"][0]
        self.assertEqual(f["sass"], {"sm_80": 1, "sm_90a": 1, "sm_100a": 1})
        self.assertEqual(f["ptx"], {"compute_120": 1})
        self.assertEqual((f["fatbins"], f["compressed_entries"]), (2, 2))
        runs = {r["gpu"]: r["runs"] for r in self.inspect(lib, "--gpu", "sm_90,sm_86,sm_103,sm_120,sm_75")["files"][0]["runs"]}
        self.assertEqual(runs, {"sm_90": "native", "sm_86": "native", "sm_103": "no", "sm_120": "JIT", "sm_75": "no"})

    def test_fatbins_the_library_keeps_in_its_data(self):
        # As cuFFT 12 of CUDA 13 on the H200 (docs/gpu-results.md): an sm_75 stub
        # in .nv_fatbin, every kernel in fatbins inside .ldata, at no alignment,
        # between other data, a magic number that starts no whole fatbin, and a
        # fatbin whose one entry is of kind 8, neither a cubin nor PTX (12,728 of
        # them there, run 4): it is not counted.
        stub = self.elf("stub", craft.fatbin([craft.entry(craft.ELF_KIND, 75)]))
        data = (b"\x01" * 12 + craft.fatbin([craft.entry(craft.ELF_KIND, 90), craft.entry(craft.PTX_KIND, 90)]) +
                b"tables" + struct.pack("<IHHQ", craft.MAGIC, 1, 16, 1 << 40) + b"\x07" * 37 +
                craft.fatbin([craft.entry(8, 90)]) + b"\x02" * 3 +
                craft.fatbin([craft.entry(craft.ELF_KIND, 120)]) + b"\x00" * 5)
        lib = craft.into_elf(data, os.path.join(self.tmp, "libcufft.so.12"), section=".ldata", base=stub)
        f = self.inspect(lib)["files"][0]
        self.assertIsNone(f["problem"])
        self.assertEqual(f["sass"], {"sm_75": 1, "sm_90": 1, "sm_120": 1})
        self.assertEqual(f["ptx"], {"compute_90": 1})
        self.assertEqual(f["in_data_sections"], {"fatbins": 2, "sass": {"sm_90": 1, "sm_120": 1}, "ptx": {"compute_90": 1}})
        self.assertEqual(self.lists(f), ({"sm_75": 1}, {}))  # cuobjdump's view: the stub alone
        self.assertEqual(f["runs"], [{"gpu": "sm_90", "runs": "native", "why": "sm_90 SASS"}])

    def test_a_section_that_only_starts_with_a_fatbin(self):
        # As CUDA 13.0's cuBLASLt (docs/gpu-results.md, runs 3 and 4): beside
        # .nv_fatbin, .cask_resource starts with 14 fatbins and goes on with other
        # data, 383 fatbins in all. They are the library's own, not a damaged fatbin section.
        lib = self.elf("libcublasLt.so.13", craft.fatbin([craft.entry(craft.ELF_KIND, 90)]))
        other = craft.fatbin([craft.entry(craft.ELF_KIND, 100)]) * 2 + b"\x05tables" * 8
        lib = craft.into_elf(other, os.path.join(self.tmp, "lt2"), section=".cask_resource", base=lib)
        lib = craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 120)]) + b"strings\0",
                             os.path.join(self.tmp, "lt3"), section=".lrodata", base=lib)
        f = self.inspect(lib)["files"][0]
        self.assertIsNone(f["problem"])
        self.assertEqual(f["sass"], {"sm_90": 1, "sm_100": 2, "sm_120": 1})
        self.assertEqual(f["in_data_sections"], {"fatbins": 3, "sass": {"sm_100": 2, "sm_120": 1}, "ptx": {}})
        self.assertEqual(self.lists(f), ({"sm_90": 1}, {}))  # cuobjdump's view: .nv_fatbin

    def test_ptx_only_and_sass_only(self):
        ptx = self.inspect(self.elf("ptx", craft.fatbin([craft.entry(craft.PTX_KIND, 52)])), "--gpu", "sm_61")
        self.assertEqual(ptx["files"][0]["runs"][0]["runs"], "JIT")
        sass = self.inspect(self.elf("sass", craft.fatbin([craft.entry(craft.ELF_KIND, 70)])), "--gpu", "sm_61")
        self.assertEqual(sass["files"][0]["runs"][0]["runs"], "no")

    def test_bad_input_is_a_finding_not_a_crash(self):
        good = craft.fatbin([craft.entry(craft.ELF_KIND, 80)])
        cases = {
            "truncated": good[:-20],
            "garbage": good + b"G" * 24,
            "huge_fatbin": craft.fatbin([])[:8] + (2 ** 63).to_bytes(8, "little"),
            "huge_header": good[:16] + craft.entry(craft.ELF_KIND, 80, header_size=72)[:4] + (2 ** 31).to_bytes(4, "little")
                           + good[24:],
        }
        for name, blob in cases.items():
            with self.subTest(case=name):
                p = self.run_cli("inspect", self.elf(name, blob), "--gpu", "sm_80", ok=False)
                self.assertEqual(p.returncode, 1)
                self.assertRegex(p.stdout, r"\? \(.*(claims|not a fatbin header|header of|cut short)")
        text = os.path.join(self.tmp, "notes.txt")
        with open(text, "w") as f:
            f.write("not a library\n")
        p = self.run_cli("inspect", text, "--gpu", "sm_80", ok=False)
        self.assertIn("not an ELF or PE file", p.stdout)
        # A section that points past the end of the file.
        elf = bytearray(open(self.elf("shdr", good), "rb").read())
        shoff = int.from_bytes(elf[0x28:0x30], "little")
        shentsize, shnum = int.from_bytes(elf[0x3a:0x3c], "little"), int.from_bytes(elf[0x3c:0x3e], "little")
        last = shoff + (shnum - 1) * shentsize
        elf[last + 24:last + 32] = (len(elf) * 4).to_bytes(8, "little")  # sh_offset
        bad = os.path.join(self.tmp, "past-end")
        with open(bad, "wb") as f:
            f.write(elf)
        p = self.run_cli("inspect", bad, "--gpu", "sm_80", ok=False)
        self.assertIn("past the end of the file", p.stdout)

    def test_trace_flags_a_loaded_library_without_code_for_this_gpu(self):
        if not os.path.exists(LOADER):
            self.skipTest("no trace loader built")
        src = os.path.join(self.tmp, "f.c")
        with open(src, "w") as f:
            f.write("int cublas_stand_in(void) { return 1; }\n")
        plain = os.path.join(self.tmp, "plain.so")
        subprocess.run(["gcc", "-shared", "-fPIC", "-o", plain, src], check=True)
        blob = os.path.join(self.tmp, "blob")
        with open(blob, "wb") as f:
            f.write(craft.fatbin([craft.entry(craft.ELF_KIND, 75), craft.entry(craft.ELF_KIND, 90)]))
        lib = os.path.join(self.tmp, "libcublasLt.so.12")
        subprocess.run(["objcopy", "--add-section", f".nv_fatbin={blob}", "--set-section-flags",
                        ".nv_fatbin=contents,readonly", plain, lib], check=True)
        p = self.run_cli("trace", "--", LOADER, lib, env=dict(self.env, CUDAENV_GPU="sm_61"))
        self.assertIn(f"warning: libcublasLt.so.12 ({lib}) has no code for sm_61 (has sm_75 sm_90): its kernels fail",
                      p.stderr)
        ok = self.run_cli("trace", "--", LOADER, lib, env=dict(self.env, CUDAENV_GPU="sm_75"))
        self.assertNotIn("no code for", ok.stderr)

    def test_folder_and_cache(self):
        d = os.path.join(self.tmp, "libs")
        os.makedirs(d)
        craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 86)]), os.path.join(d, "liba.so.1"))
        with open(os.path.join(d, "README"), "w") as f:
            f.write("text files are not listed\n")
        out = self.run_cli("inspect", d, "--gpu", "sm_86").stdout
        self.assertIn("liba.so.1", out)
        self.assertNotIn("README", out)
        self.assertIn("native (sm_86 SASS)", out)
        # gpucode.txt is read on every `use`: it keeps the files of pairs and
        # wheels, not every binary someone inspected.
        cache = os.path.join(self.root, "cache", "gpucode.txt")
        self.assertFalse(os.path.exists(cache) and b"liba.so.1" in open(cache, "rb").read())


def mirror_with(dest, cuda, cudnn):
    """The sample mirror (.ci/sample_mirror.py) with the given releases added."""
    sample_mirror.CUDA.update(cuda)
    sample_mirror.CUDNN.update(cudnn)
    for r in cuda:
        sample_mirror.cuda_release(dest, r)
    for r in cudnn:
        sample_mirror.cudnn_release(dest, r)
    return dest


CUDA13 = {"13.0.2": ("13.0.96", "13.0.88", "cuda_13.0.r13.0/compiler.36424714_0", 13000)}
CUDNN9 = {"9.10.2": ("9.10.2.21", (12,)), "9.11.0": ("9.11.0.98", (12, 13))}


class Overrides(Base):
    """--gpu/--driver and CUDAENV_GPU on pairs installed from the sample mirror."""

    def setUp(self):
        super().setUp()
        self.mirror = mirror_with(os.path.join(self.tmp, "mirror"), {"12.6.3": sample_mirror.CUDA["12.6.3"], **CUDA13},
                                  CUDNN9)

    def install(self, *args, ok=True):
        return self.run_cli("install", *args, "--mirror", self.mirror, "--quiet", ok=ok)

    def test_install_picks_the_newest_cudnn_that_runs(self):
        # Without 9.11's archive: had install tried to download it, it would fail.
        os.remove(os.path.join(self.mirror, "cudnn", "redist", "cudnn", "linux-x86_64",
                               "cudnn-linux-x86_64-9.11.0.98_cuda12-archive.tar.xz"))
        p = self.install("12.6+9", "--gpu", "sm_61")
        self.assertIn("planning for GPU sm_61 from --gpu", p.stderr)
        self.assertIn("cuDNN 9.11.0 cannot run here", p.stderr)
        self.assertIn("taking 9.10.2", p.stderr)
        self.assertTrue(os.path.isdir(os.path.join(self.root, "cudnn", "9.10.2_cuda12")))
        self.assertFalse(os.path.exists(os.path.join(self.root, "cudnn", "9.11.0_cuda12")))
        p = self.install("12.6+9.11", "--gpu", "sm_61", ok=False)
        self.assertIn("no cuDNN release matching 9.11 runs here", p.stderr)
        self.assertIn("releases that would: 9.10.2", p.stderr)
        # Refused while planning, before anything is downloaded: the toolkit is judged first.
        p = self.install("13.0+9.11", "--gpu", "sm_61", ok=False)
        self.assertIn("no CUDA release matching 13.0 runs here", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.root, "toolkits", "13.0.2")))

    def test_refused_before_any_download_unless_forced(self):
        p = self.install("13.0", "--gpu", "sm_61", ok=False)
        self.assertIn("no CUDA release matching 13.0 runs here", p.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.root, "toolkits")))
        fetched = [n for _, _, names in os.walk(self.root) for n in names if n.endswith(".tar.xz")]
        self.assertEqual(fetched, [])
        p = self.install("13.0", "--gpu", "sm_61", "--force")
        self.assertIn("installing it anyway (--force)", p.stderr)
        self.assertTrue(os.path.isdir(os.path.join(self.root, "toolkits", "13.0.2")))

    def test_list_says_no_for_old_gpus_and_native_for_turing(self):
        self.install("13.0+9.11", "--gpu", "sm_75")
        self.install("12.6+9.10", "--gpu", "sm_61")
        p = self.run_cli("list", "--gpu", "sm_61")
        self.assertIn("planning for GPU sm_61 from --gpu", p.stderr)
        rows = {l.split()[0]: l.split()[-1] for l in p.stdout.splitlines() if re.match(r"^\s*[\d.+]+\s", l)}
        self.assertEqual(rows["13.0.2+9.11.0"], "no", p.stdout)
        self.assertEqual(rows["12.6.3+9.10.2"], "native", p.stdout)
        self.assertRegex(p.stdout, r"13\.0\.2\+9\.11\.0: no: .*7\.5")
        turing = json.loads(self.run_cli("list", "--json", env=dict(self.env, CUDAENV_GPU="sm_75")).stdout)
        self.assertEqual({x["spec"]: x["gpu"]["runs"] for x in turing["pairs"]},
                         {"13.0.2+9.11.0": "native", "12.6.3+9.10.2": "native"})
        self.assertTrue(turing["machine"]["override"])
        blackwell = json.loads(self.run_cli("list", "--json", "--gpu", "sm_120").stdout)
        # CUDA 12.6 reaches Blackwell only through PTX compute_90, and cuDNN 9.10's
        # support matrix gives it Blackwell only with CUDA 12.8 and later.
        self.assertEqual({x["spec"]: x["gpu"]["runs"] for x in blackwell["pairs"]},
                         {"13.0.2+9.11.0": "native", "12.6.3+9.10.2": "no"})
        summary = {x["spec"]: x["gpu"]["summary"] for x in blackwell["pairs"]}["12.6.3+9.10.2"]
        self.assertIn("cuDNN 9.10 for CUDA 12.6 supports compute capability 5.0-9.0, not 12.0", summary)

    def test_cuda_118_on_blackwell_runs_only_through_jit(self):
        mirror_with(self.mirror, {"11.8.0": sample_mirror.CUDA["11.8.0"]}, {"8.9.7": sample_mirror.CUDNN["8.9.7"]})
        self.install("11.8+none", "--gpu", "sm_86")
        p = self.run_cli("list", "--gpu", "sm_120")
        self.assertRegex(p.stdout, r"11\.8\.0\+none: JIT: .*PTX for 9\.0.*JIT cache")

    def test_use_exec_warn_once_on_stderr_from_the_cache(self):
        self.install("12.6+9.10", "--gpu", "sm_75")
        # Real GPU code in the pair: cuDNN's engines carry sm_75 and newer only.
        lib = os.path.join(self.root, "cudnn", "9.10.2_cuda12", "lib", "libcudnn_engines_precompiled.so.9.10.2")
        os.remove(lib)
        craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 75), craft.entry(craft.ELF_KIND, 90)]), lib)
        env = dict(self.env, CUDAENV_GPU="sm_61")
        self.run_cli("list", env=env)  # reads the libraries once, into the cache
        p = self.run_cli("exec", "12.6.3+9.10.2", "--", "sh", "-c", "echo ran", env=env)
        self.assertEqual(p.stdout, "ran\n")
        self.assertEqual(p.stderr.count("warning: this pair cannot run on sm_61"), 1, p.stderr)
        self.assertIn("libcudnn_engines_precompiled.so.9.10.2: no code for sm_61 (has sm_75 sm_90)", p.stderr)
        quiet = self.run_cli("exec", "12.6.3+9.10.2", "--", "true", env=dict(self.env, CUDAENV_GPU="sm_90"))
        self.assertEqual(quiet.stderr, "")
        # A bad CUDAENV_GPU or CUDAENV_DRIVER is an error where it judges, never for an activation.
        for bad in ({"CUDAENV_GPU": "sm_6x"}, {"CUDAENV_DRIVER": "new"}):
            p = self.run_cli("exec", "12.6.3+9.10.2", "--", "sh", "-c", "echo ran", env=dict(self.env, **bad))
            self.assertEqual((p.stdout, p.stderr), ("ran\n", ""))
            self.assertIn("cudaenv: error: ", self.run_cli("list", env=dict(self.env, **bad), ok=False).stderr)
        # use: the code it prints is the same either way, the warning goes to stderr.
        shell = dict(env, CUDAENV_SHELL="bash")
        use = self.run_cli("use", "12.6.3+9.10.2", env=shell)
        self.assertEqual(use.stdout, self.run_cli("use", "12.6.3+9.10.2", env=dict(shell, CUDAENV_GPU="sm_90")).stdout)
        self.assertEqual(use.stderr.count("warning: this pair cannot run on sm_61"), 1, use.stderr)
        # The auto-switch hook, entering a project.
        project = os.path.join(self.tmp, "project")
        os.makedirs(project)
        with open(os.path.join(project, ".cudaenv"), "w") as f:
            f.write("12.6.3+9.10.2\n")
        hook = subprocess.run([BIN, "hook-env"], env=shell, cwd=project, capture_output=True, text=True)
        self.assertEqual(hook.returncode, 0, hook.stderr)
        self.assertIn("CUDA_PATH", hook.stdout)
        self.assertEqual(hook.stderr.count("warning: this pair cannot run on sm_61"), 1, hook.stderr)
        # The tool shim: nvcc's own output on stdout, the warning on stderr.
        nvcc = os.path.join(self.root, "shims", "nvcc")
        if os.path.lexists(nvcc):
            p = subprocess.run([nvcc, "--version"], env=dict(env, CUDAENV_VERSION="12.6.3+9.10.2"), capture_output=True,
                               text=True)
            self.assertIn("release 12.6", p.stdout)
            self.assertEqual(p.stderr.count("warning: this pair cannot run on sm_61"), 1, p.stderr)


class Machine(Base):
    """The machine's GPUs from the driver, through cudaenv-probe and fake driver libraries."""

    def test_gpus_from_the_driver_kept_per_boot(self):
        env = dict(self.env, LD_LIBRARY_PATH=DRIVER, FAKEDRV_GPUS="8.6:Fake RTX A,6.1:NVIDIA GeForce GTX 1080",
                   FAKEDRV_VERSION="535.104.05", FAKEDRV_CUDA="12020")
        lib = craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 80)]), os.path.join(self.tmp, "libx.so"))
        out = self.run_cli("inspect", lib, env=env).stdout
        self.assertIn("machine: GPU 0 (Fake RTX A, sm_86), GPU 1 (NVIDIA GeForce GTX 1080, sm_61); "
                      "driver 535.104.05 (NVML), CUDA 12.2", out)
        self.assertIn("GPU 0 (Fake RTX A, sm_86): native", out)
        self.assertIn("GPU 1 (NVIDIA GeForce GTX 1080, sm_61): no", out)
        # Kept for this boot: without the driver libraries the same answer comes from the cache.
        again = self.run_cli("inspect", lib, "--json").stdout
        self.assertEqual([g["arch"] for g in json.loads(again)["machine"]["gpus"]], ["sm_86", "sm_61"])
        # Kept under CUDA_VISIBLE_DEVICES too: the driver counts only the GPUs it lets through.
        one = dict(env, CUDA_VISIBLE_DEVICES="1", FAKEDRV_GPUS="6.1:NVIDIA GeForce GTX 1080")
        self.assertIn("machine: GPU 0 (NVIDIA GeForce GTX 1080, sm_61); driver", self.run_cli("inspect", lib, env=one).stdout)

    def test_a_driver_that_lists_no_gpu_is_asked_again(self):
        # NVML answers, so a driver is loaded, but no GPU is listed (a device not
        # ready yet, a container without /dev/nvidia*): not kept for the boot.
        lib = craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 80)]), os.path.join(self.tmp, "libx.so"))
        env = dict(self.env, LD_LIBRARY_PATH=DRIVER, FAKEDRV_VERSION="580.159.04")
        self.assertIn("machine: no GPU known", self.run_cli("inspect", lib, env=env).stdout)
        out = self.run_cli("inspect", lib, env=dict(env, FAKEDRV_GPUS="9.0:NVIDIA H200")).stdout
        self.assertIn("machine: GPU 0 (NVIDIA H200, sm_90); driver 580.159.04 (NVML)", out)

    def test_no_driver(self):
        lib = craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 80)]), os.path.join(self.tmp, "libx.so"))
        out = self.run_cli("inspect", lib, env=dict(self.env, LD_LIBRARY_PATH=DRIVER)).stdout
        self.assertIn("machine: no GPU known (cuInit failed with CUresult 100 (no CUDA-capable device))", out)
        self.assertRegex(out, r"libx\.so\s+sm_80\s+-\s+\?")


class Compat(Base):
    """Forward compatibility on activation: the cuda-compat libraries first on
    LD_LIBRARY_PATH only for a driver too old and a data-centre GPU (fake
    driver libraries name the GPU and the driver, as NVML and the driver API do)."""

    def setUp(self):
        super().setUp()
        mirror = mirror_with(os.path.join(self.tmp, "mirror"), {"12.6.3": sample_mirror.CUDA["12.6.3"]}, {})
        self.run_cli("install", "12.6+none", "--mirror", mirror, "--quiet", "--force")
        self.compat = os.path.join(self.root, "toolkits", "12.6.3", "compat")
        os.makedirs(self.compat)
        with open(os.path.join(self.compat, "libcuda.so.560.35.05"), "w") as f:
            f.write("compat\n")
        os.symlink("libcuda.so.560.35.05", os.path.join(self.compat, "libcuda.so.1"))

    def machine(self, gpu):
        """The machine's record for this boot, from the fake driver: `gpu` and driver 470.256.02 (CUDA 11.4)."""
        # The install above asked the machine without the fake driver: ask again.
        os.remove(os.path.join(self.root, "cache", "machine.txt"))
        env = dict(self.env, LD_LIBRARY_PATH=DRIVER, FAKEDRV_GPUS=gpu, FAKEDRV_VERSION="470.256.02", FAKEDRV_CUDA="11040")
        lib = craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 80)]), os.path.join(self.tmp, "libx.so"))
        self.assertIn("driver 470.256.02 (NVML)", self.run_cli("inspect", lib, env=env).stdout)

    def library_path(self):
        p = self.run_cli("exec", "12.6.3+none", "--", "sh", "-c", 'echo "$LD_LIBRARY_PATH"')
        return p.stdout.strip().split(os.pathsep), p.stderr

    def test_a_data_centre_gpu_gets_the_compat_libraries_first(self):
        self.machine("9.0:NVIDIA H100 80GB HBM3")
        path, err = self.library_path()
        self.assertEqual(path[0], self.compat, path)
        self.assertEqual(err, "")
        doctor = json.loads(self.run_cli("doctor", "--json", env=dict(self.env, CUDAENV_VERSION="12.6.3+none"),
                                         ok=False).stdout)
        fc = {f["topic"]: f for f in doctor["findings"]}["forward_compat"]
        self.assertEqual(fc["details"]["choice"], "use", fc)
        self.assertIn("560.35.05", fc["summary"])

    def test_a_geforce_is_refused_with_804(self):
        self.machine("8.9:NVIDIA GeForce RTX 4090")
        path, err = self.library_path()
        self.assertNotIn(self.compat, path)
        self.assertEqual(err.count("cudaenv: warning: this pair cannot run with this driver"), 1, err)
        self.assertIn("error 804", err)
        self.assertIn("driver 470.256.02 runs CUDA up to 11.4; 12.6 needs >= 525.60.13", err)


class Smi(Base):
    """A fake nvidia-smi on PATH (no driver library answers here): hung, exiting
    while a child it started holds its stdout, and printing a 2 MB line."""

    def smi(self, script):
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir, exist_ok=True)
        path = os.path.join(bindir, "nvidia-smi")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n" + script)
        os.chmod(path, 0o755)
        # No driver library: the driver's version is nvidia-smi's to tell.
        return dict(self.env, PATH=bindir + os.pathsep + self.env["PATH"], LD_LIBRARY_PATH=DRIVER)

    def timed_inspect(self, lib, env):
        import time
        start = time.monotonic()
        p = self.run_cli("inspect", lib, env=env)
        return p, time.monotonic() - start

    def lib(self):
        return craft.into_elf(craft.fatbin([craft.entry(craft.ELF_KIND, 80)]), os.path.join(self.tmp, "libx.so"))

    def test_hung_nvidia_smi_is_waited_for_once(self):
        lib, env = self.lib(), self.smi("exec sleep 120\n")
        first, took = self.timed_inspect(lib, env)
        self.assertIn("nvidia-smi did not answer in 10 s", first.stdout)
        self.assertLess(took, 60)
        # Kept for a few minutes in the boot's record: not waited for on every command.
        again, took = self.timed_inspect(lib, env)
        self.assertLess(took, 5, "the timed-out answer was not kept")
        self.assertIn("nvidia-smi did not answer", again.stdout)

    def test_a_child_holding_stdout_does_not_keep_it_waiting(self):
        lib = self.lib()
        env = self.smi("echo '| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |'\n"
                       "(sleep 120) &\nexit 0\n")
        p, took = self.timed_inspect(lib, env)
        self.assertLess(took, 8, "reading went on after nvidia-smi ended")
        self.assertIn("driver 535.104.05 (nvidia-smi), CUDA 12.2", p.stdout)

    def test_a_2mb_version_line_is_no_version(self):
        lib = self.lib()
        env = self.smi("printf '| Driver Version: '\nhead -c 2097152 /dev/zero | tr '\\0' 9\n"
                       "printf '   CUDA Version: 12.2 |\\n'\n")
        p = self.run_cli("inspect", lib, env=env)
        self.assertIn("no NVIDIA driver found", p.stdout)
        # A bad --driver is refused the same way.
        bad = self.run_cli("list", "--driver", "9" * 40, ok=False)
        self.assertIn("is not a driver version", bad.stderr)


class Inputs(Base):
    """`inspect --json` reports every file, one that is no ELF or PE file as such."""

    def test_files_that_are_no_binary(self):
        text = os.path.join(self.tmp, "notes.txt")
        with open(text, "w") as f:
            f.write("not a library\n")
        folder = os.path.join(self.tmp, "junk")
        os.makedirs(folder)
        with open(os.path.join(folder, "libjunk.so"), "wb") as f:
            f.write(b"\0" * 100)
        fifo = os.path.join(self.tmp, "pipe")
        os.mkfifo(fifo)
        for path in (text, os.devnull, folder, fifo):
            with self.subTest(path=path):
                p = self.run_cli("inspect", path, "--json", "--gpu", "sm_90", ok=False)
                self.assertEqual(p.returncode, 1, p.stderr)  # a file that could not be read as a binary
                self.assertNotIn("basic_string", p.stderr)
                out = json.loads(p.stdout)
                self.assertTrue(out["files"], out)
                for f in out["files"]:
                    self.assertEqual(f["format"], "other", f)
                    self.assertTrue(f["problem"], f)


if __name__ == "__main__":
    BIN = os.path.abspath(sys.argv[1])
    DRIVER = os.path.abspath(sys.argv[2])
    LOADER = os.path.abspath(sys.argv[3])
    unittest.main(argv=[sys.argv[0]] + sys.argv[4:], verbosity=2)
