// `cudaenv trace`: the record lines of the audit library and the origin
// classifier that `check` shares, on synthetic folders (the end-to-end cases
// with real loads are in tests/trace/).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/origin.hpp"
#include "test_support.hpp"
#include "trace/trace.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;

TEST_CASE("trace records: each mapped object gets the search step that found it") {
    std::string text =
        "P\t10\t1\t/bin/prog\tprog\n"
        "S\t10\torig\t\tlibcudnn.so.9\n"
        "S\t10\tlibpath\t\t/a/libcudnn.so.9\n"
        "S\t10\trunpath\t/x/libtorch.so\t/b/libcudnn.so.9\n"
        "O\t10\t0\t/b/libcudnn.so.9\n"
        "S\t10\torig\t/x/libtorch.so\t/w/nvidia/cudnn/lib/libcudnn_ops.so.9\n"
        "O\t10\t0\t/w/nvidia/cudnn/lib/libcudnn_ops.so.9\n"
        "O\t10\t0\t/c/libcuda.so.1\n"
        "P\t11\t10\t/bin/child\tC:\\\\tab\\there\n"
        "garbage\n";
    auto r = trace::parse_records(text);
    REQUIRE(r.processes.size() == 2);
    CHECK(r.processes[1].ppid == 10);
    CHECK(r.processes[1].argv0 == "C:\\tab\there");
    REQUIRE(r.loads.size() == 3);
    CHECK(r.loads[0].how == "runpath");
    CHECK(r.loads[0].requester == "/x/libtorch.so");
    CHECK(r.loads[0].asked == "libcudnn.so.9");
    CHECK(r.loads[1].how == "absolute");
    CHECK(r.loads[2].how == "");
}

TEST_CASE("origin: pair, other pair, pip wheel, torch, conda, driver, other") {
    TempDir t;
    auto mk = [&](const std::string& rel) {
        auto p = t.path() / rel;
        write(p, "x");
        return p;
    };
    origin::PairDirs pair{"12.6.3+9.8.0", {t.path() / "cuda"}, {t.path() / "cudnn"}, *Version::parse("12.6.3"),
                          *Version::parse("9.8.0")};
    origin::PairDirs other{"11.8.0+8.9.7", {t.path() / "cuda11"}, {t.path() / "cudnn8"}, {}, {}};
    origin::Classifier c(pair, {other});
    auto o = c.classify(mk("cudnn/lib/libcudnn.so.9"));
    CHECK(o.kind == origin::Kind::pair);
    REQUIRE(o.version);
    CHECK(o.version->str() == "9.8.0");
    CHECK(c.classify(mk("cudnn8/lib/libcudnn.so.8")).kind == origin::Kind::other_pair);
    auto w = c.classify(mk("venv/lib/python3.12/site-packages/nvidia/cudnn/lib/libcudnn.so.9"));
    CHECK(w.kind == origin::Kind::pip_wheel);
    CHECK(w.package == "nvidia-cudnn");
    CHECK(c.classify(mk("venv/lib/python3.12/site-packages/torch/lib/libcudnn.so.9")).package == "torch");
    std::filesystem::create_directories(t.path() / "conda" / "conda-meta");
    CHECK(c.classify(mk("conda/lib/libcudart.so.12")).kind == origin::Kind::conda);
    CHECK(c.classify(mk("drv/libcuda.so.1")).kind == origin::Kind::driver);
    CHECK(c.classify(mk("else/libcudart.so.12")).kind == origin::Kind::other);
    // A link inside the pair to a file elsewhere is not the pair's.
    std::filesystem::create_directories(t.path() / "cuda");
    if (testsupport::symlink(t.path() / "else/libcudart.so.12", t.path() / "cuda/libcudart.so.12"))
        CHECK(c.classify(t.path() / "cuda/libcudart.so.12").kind == origin::Kind::other);
}

TEST_CASE("origin: family from the file name") {
    CHECK(origin::family_of("libcudnn_ops.so.9") == origin::Family::cudnn);
    CHECK(origin::family_of("cudnn_ops_infer64_8.dll") == origin::Family::cudnn);
    CHECK(origin::family_of("libcublasLt.so.12") == origin::Family::toolkit);
    CHECK(origin::family_of("cudart64_110.dll") == origin::Family::toolkit);
    CHECK(origin::family_of("libcuda.so.1") == origin::Family::driver);
    CHECK(origin::family_of("nvcuda.dll") == origin::Family::driver);
    CHECK(origin::family_of("libm.so.6") == origin::Family::none);
}

TEST_CASE("trace verdict: a framework that brings its own libraries says so first") {
    TempDir t;
    const auto site = t.path() / "venv" / "lib" / "python3.12" / "site-packages";
    auto mk = [&](const std::filesystem::path& p) {
        write(p, "x");
        return p.string();
    };
    origin::PairDirs pair{"13.0.2+9.13.0", {t.path() / "cuda"}, {t.path() / "cudnn"}, *Version::parse("13.0.2"),
                          *Version::parse("9.13.0")};
    trace::Records r;
    r.processes = {{10, 1, "/usr/bin/python3", "python3"}};
    auto torch = (site / "torch" / "lib" / "libtorch_cuda.so").string();
    r.loads = {{10, mk(site / "nvidia" / "cuda_runtime" / "lib" / "libcudart.so.13"), "absolute", torch, ""},
               {10, mk(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9.19.0.56"), "absolute", torch, ""},
               {10, mk(t.path() / "drv" / "libcuda.so.1"), "default", "", ""}};
    auto rep = trace::analyse(r, {pair.spec, pair, {}, ""});
    CHECK(rep.verdict ==
          "torch loads its wheel's CUDA runtime and cuDNN 9.19.0.56 by absolute path; this pair's CUDA libraries and "
          "cuDNN are not used");
    CHECK(rep.problems.size() == 2);  // the details, each library with the one thing to do
    auto text = trace::render_text(rep, 0, "");
    CHECK(text.find("verdict: torch loads its wheel's") != std::string::npos);
}

// As on the H200 (docs/gpu-results.md): torch 2.11 preloads its wheels through
// Python's ctypes, its libraries' RPATH finds the runtime, and `discover --add`
// had adopted the wheels' folders as pairs of their own.
TEST_CASE("trace verdict: torch through ctypes, wheels adopted as another pair") {
    TempDir t;
    const auto site = t.path() / "venv" / "lib" / "python3.12" / "site-packages";
    auto mk = [&](const std::filesystem::path& p) {
        write(p, "x");
        return p.string();
    };
    origin::PairDirs pair{"13.0+9.14.0", {t.path() / "cuda"}, {t.path() / "cudnn"}, *Version::parse("13.0"),
                          *Version::parse("9.14.0")};
    origin::PairDirs wheels{"13.0@pip+9.19.0.56", {site / "nvidia" / "cu13"}, {site / "nvidia" / "cudnn"}, {}, {}};
    trace::Records r;
    r.processes = {{10, 1, "/usr/bin/python3.12", "python3"}};
    auto ctypes = "/usr/lib/python3.12/lib-dynload/_ctypes.cpython-312-x86_64-linux-gnu.so";
    auto deps = mk(site / "torch" / "lib" / "libtorch_global_deps.so");
    r.loads = {{10, mk(site / "nvidia" / "cu13" / "lib" / "libcudart.so.13"), "runpath", deps, ""},
               {10, mk(site / "nvidia" / "cu13" / "lib" / "libcublas.so.13"), "absolute", ctypes, ""},
               {10, mk(site / "nvidia" / "cudnn" / "lib" / "libcudnn.so.9.19.0.56"), "absolute", ctypes, ""}};
    auto rep = trace::analyse(r, {pair.spec, pair, {wheels}, ""});
    CHECK(rep.libraries.at(1).origin.kind == origin::Kind::other_pair);
    CHECK(rep.verdict ==
          "torch loads its wheel's CUDA runtime, CUDA libraries and cuDNN 9.19.0.56 by absolute path and RPATH; this "
          "pair's CUDA libraries and cuDNN are not used");
    // Only the toolkit's libraries from the wheel: "CUDA libraries are", never "is".
    r.loads.pop_back();
    rep = trace::analyse(r, {pair.spec, pair, {wheels}, ""});
    CHECK(rep.verdict ==
          "torch loads its wheel's CUDA runtime and CUDA libraries by absolute path and RPATH; this pair's CUDA "
          "libraries are not used");
}

// Forward compatibility (issue 37): the host driver is the kernel's, never a
// loaded libcuda's file name; a libcuda of another version is the cuda-compat
// library, named as such, and the runtime is judged against what it runs.
TEST_CASE("trace: the cuda-compat library named, the runtime judged against the driver that runs") {
    TempDir t;
    origin::PairDirs pair{"12.6.3+9.8.0", {t.path() / "cuda" / "lib"}, {t.path() / "cudnn"}, *Version::parse("12.6.3"),
                          *Version::parse("9.8.0")};
    write(t.path() / "cuda" / "lib" / "libcudart.so.12.6.77", "x");
    write(t.path() / "cuda" / "compat" / "libcuda.so.560.35.05", "x");
    write(t.path() / "drv" / "libcuda.so.470.256.02", "x");
    if (!testsupport::symlink("libcuda.so.560.35.05", t.path() / "cuda" / "compat" / "libcuda.so.1") ||
        !testsupport::symlink("libcuda.so.470.256.02", t.path() / "drv" / "libcuda.so.1"))
        return;  // no symbolic links here (Wine): nothing to test
    trace::Records r;
    r.processes = {{10, 1, "/x/prog", "prog"}};
    const auto cudart = (t.path() / "cuda" / "lib" / "libcudart.so.12.6.77").string();
    SUBCASE("with the compat library: a note, no warning") {
        r.loads = {{10, cudart, "libpath", "/x/prog", ""},
                   {10, (t.path() / "cuda" / "compat" / "libcuda.so.1").string(), "libpath", cudart, ""}};
        auto rep = trace::analyse(r, {pair.spec, pair, {}, "470.256.02"});
        CHECK(rep.driver_version == "470.256.02");  // the kernel's, not the compat library's name
        CHECK(rep.compat_version == "560.35.05");
        REQUIRE(rep.notes.size() == 1);
        CHECK(rep.notes[0].find("forward compatibility: libcuda.so.1 is the cuda-compat library 560.35.05") == 0);
        CHECK(rep.warnings.empty());
        CHECK(trace::to_json(rep, 0, "")["compat_library"] ==
              (t.path() / "cuda" / "compat" / "libcuda.so.560.35.05").string());
    }
    SUBCASE("the host driver alone: the runtime is too new for it") {
        r.loads = {{10, cudart, "libpath", "/x/prog", ""},
                   {10, (t.path() / "drv" / "libcuda.so.1").string(), "default", cudart, ""}};
        auto rep = trace::analyse(r, {pair.spec, pair, {}, "470.256.02"});
        CHECK(rep.compat_library.empty());
        REQUIRE(rep.warnings.size() == 1);
        CHECK(rep.warnings[0].find("libcudart.so.12.6.77 is CUDA 12.6: driver 470.256.02 runs CUDA up to 11.4; 12.6 needs "
                                   ">= 525.60.13") == 0);
    }
}
