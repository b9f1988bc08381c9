// Unit tests of a pair's libraries (gpu/pair_code).
#include <doctest/doctest.h>

#include <set>

#include "gpu/pair_code.hpp"
#include "test_support.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::TempDir;
using testsupport::write;

TEST_CASE("pair libraries: only this pair's majors from a folder it shares") {
    // A system folder with libcudnn8 and libcudnn9, CUDA 11's and 12's cuBLAS.
    TempDir t("pairlibs");
    const auto lib = t / "lib";
    for (const char* f : {"libcudnn_ops.so.8.9.7", "libcudnn_ops.so.9.14.0", "libcublas.so.11.11.3.6",
                          "libcublas.so.12.6.4.1", "libcufft.so.11.3.0.4", "libcudart.so.12.6.77"})
        write(lib / f, "not a binary");
    DetectedPair p;
    p.toolkit.root = t / "cuda";
    p.toolkit.version = *Version::parse("12.6");
    p.toolkit.lib_dirs = {lib};
    Cudnn c;
    c.root = t / "cudnn";
    c.version = *Version::parse("9.14.0");
    c.lib_dirs = {lib};
    p.cudnn = c;
    CodeCache cache;
    std::set<std::string> names;
    for (const auto& l : pair_libraries(p, cache, Scan::read)) names.insert(l.path.filename().string());
    CHECK(names == std::set<std::string>{"libcublas.so.12.6.4.1", "libcudart.so.12.6.77", "libcufft.so.11.3.0.4",
                                         "libcudnn_ops.so.9.14.0"});
}
