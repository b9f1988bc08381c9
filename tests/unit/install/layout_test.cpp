// Unit tests of archive names, cuDNN library sets, a Windows cuDNN layout and version.json (install/layout).
#include <doctest/doctest.h>

#include "test_support.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "install/archive.hpp"
#include "install/fetch.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"
#include "install/sha256.hpp"
#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using namespace cudaenv::install;
namespace fs = std::filesystem;
using testsupport::TempDir;

TEST_CASE("archive names") {
    auto c = parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz");
    REQUIRE(c);
    CHECK(c->is_cudnn());
    CHECK(c->platform == "linux-x86_64");
    CHECK(c->version.str() == "8.9.7.29");
    CHECK(c->cuda_major == 11);
    CHECK(c->extension == "tar.xz");
    auto w = parse_archive_name("cudnn-windows-x86_64-9.13.0.50_cuda13-archive.zip");
    REQUIRE(w);
    CHECK(w->platform == "windows-x86_64");
    CHECK(w->cuda_major == 13);
    auto rt = parse_archive_name("cuda_cudart-linux-x86_64-11.8.89-archive.tar.xz");
    REQUIRE(rt);
    CHECK(rt->component == "cuda_cudart");
    CHECK(rt->cuda_major == 0);
    CHECK(parse_archive_name("libcublas-windows-x86_64-12.6.4.1-archive.zip"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29-archive.tar.xz"));  // no _cuda<N>
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.gz"));
    CHECK_FALSE(parse_archive_name("../cudnn-linux-x86_64-8.9.7.29_cuda11-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-8.9.7.29_cuda0-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cuda_cudart-linux-x86_64-11.8.89_cuda11-archive.tar.xz"));  // _cuda<N> is cuDNN's
    CHECK_FALSE(parse_archive_name("cuda_cudart-beos-x86_64-11.8.89-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cuda_cudart-linux-x86_64-11.8.89.1.2-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("-linux-x86_64-11.8.89-archive.tar.xz"));
    // Names of any length are read in one pass (std::regex recursed once per character).
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-" + std::string(200000, '9') + "_cuda12-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name("cudnn-linux-x86_64-9.8.0.87_cuda" + std::string(200000, '1') + "-archive.tar.xz"));
    CHECK_FALSE(parse_archive_name(std::string(200000, 'a') + "-linux-x86_64-1.0-archive.zip"));
    CHECK(manifest_release("redistrib_12.6.3.json")->str() == "12.6.3");
    CHECK_FALSE(manifest_release("redistrib_12.6.3.json.part"));
    CHECK_FALSE(manifest_release("redistrib_.json"));
    CHECK_FALSE(manifest_release("redistrib_1.2.3.4.5.json"));
    CHECK_FALSE(manifest_release("redistrib_" + std::string(30000, '1') + ".json"));
}

TEST_CASE("cuDNN library sets") {
    CHECK(cudnn_required_libraries(8, false).size() == 7);
    CHECK(cudnn_required_libraries(9, false).size() == 8);
    CHECK(cudnn_required_libraries(8, false).front() == "libcudnn.so.8");
    CHECK(cudnn_required_libraries(9, true).back() == "cudnn_heuristic64_9.dll");
    auto w8 = cudnn_required_libraries(8, true);
    CHECK(std::find(w8.begin(), w8.end(), "cudnn_adv_train64_8.dll") != w8.end());
}

TEST_CASE("validate a Windows cuDNN layout (bin/, lib/x64/)") {
    TempDir t;
    fs::create_directories(t.path() / "bin");
    fs::create_directories(t.path() / "include");
    std::ofstream(t.path() / "include" / "cudnn_version.h")
        << "#define CUDNN_MAJOR 8\n#define CUDNN_MINOR 9\n#define CUDNN_PATCHLEVEL 7\n";
    auto v = *Version::parse("8.9.7.29");
    CHECK_THROWS_AS(validate_cudnn(t.path(), v, "windows-x86_64"), Error);
    for (const auto& n : cudnn_required_libraries(8, true)) std::ofstream(t.path() / "bin" / n) << "dll";
    CHECK_NOTHROW(validate_cudnn(t.path(), v, "windows-x86_64"));
    CHECK_THROWS_AS(validate_cudnn(t.path(), *Version::parse("8.9.6.50"), "windows-x86_64"), Error);
    CHECK_THROWS_AS(validate_cudnn(t.path(), v, "linux-x86_64"), Error);  // no lib/libcudnn.so.8
}

TEST_CASE("version.json in NVIDIA's format is read back by detection") {
    auto text = toolkit_version_json("12.6.3", {{"cuda_cudart", {"CUDA Runtime (cudart)", "12.6.77"}}});
    CHECK(text.find(R"("cuda": {)") != std::string::npos);
    CHECK(text.find(R"("name": "CUDA SDK")") != std::string::npos);
    CHECK(text.find(R"("version": "12.6.3")") != std::string::npos);
    TempDir t;
    std::ofstream(t.path() / "version.json") << text;
    auto comps = read_version_json_components(t.path());
    CHECK(comps.size() == 1);
    CHECK(comps.at("cuda_cudart").version == "12.6.77");
}
