#include <doctest/doctest.h>

#include "store/adopt.hpp"
#include "test_support.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;

namespace {
using testsupport::V;
const char* cudnn8_header = "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n";
}  // namespace

TEST_CASE("inspect_folder") {
    TempDir tmp("adopt");
    Store store(tmp / "store");

    SUBCASE("cuDNN copied into a Windows toolkit folder: both, cuDNN for that CUDA major") {
        auto root = tmp / "CUDA" / "v11.8";
        write(root / "bin" / "cudart64_110.dll");
        write(root / "bin" / "nvcc.exe");
        write(root / "bin" / "cudnn64_8.dll");
        write(root / "include" / "cuda_runtime_api.h", "#define CUDART_VERSION 11080\n");
        write(root / "include" / "cudnn_version.h", cudnn8_header);
        auto found = inspect_folder(root, store);
        REQUIRE(found.size() == 2);
        CHECK(found[0].kind == Found::Kind::toolkit);
        CHECK(found[0].version == V("11.8"));
        CHECK(found[1].kind == Found::Kind::cudnn);
        CHECK(found[1].version == V("8.9.7"));
        CHECK(found[1].cuda_major == 11);
        CHECK(describe(found[1]) == "cuDNN 8.9.7 for CUDA 11");
    }
    SUBCASE("adopt records new items once; known ones are marked") {
        auto root = tmp / "cudnn-linux-x86_64-8.9.7.29_cuda12-archive";
        write(root / "include" / "cudnn_version.h", cudnn8_header);
        write(root / "lib" / "libcudnn.so.8.9.7");
        auto found = inspect_folder(root, store);
        REQUIRE(found.size() == 1);
        CHECK_FALSE(found[0].known);
        adopt(found, store);
        REQUIRE(store.config().cudnns.size() == 1);
        CHECK(store.config().cudnns[0].cuda_major == 12);
        found = inspect_folder(root / "." / "", store);
        REQUIRE(found.size() == 1);
        CHECK(found[0].known);
        adopt(found, store);
        CHECK(store.config().cudnns.size() == 1);
    }
    SUBCASE("neither") {
        write(tmp / "x" / "readme.txt");
        CHECK(inspect_folder(tmp / "x", store).empty());
    }
}
