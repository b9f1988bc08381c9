// Unit tests of NVIDIA's real redistrib manifests (copies in tests/install/data) read (install/manifest).
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

namespace {

Manifest load(const std::string& name, const std::string& product) {
    auto text = fsx::read_file(fs::path(CUDAENV_INSTALL_TEST_DATA) / name, 64u << 20);
    REQUIRE(text);
    return Manifest::parse(*text, name, "", product);
}

}  // namespace

TEST_CASE("CUDA 12.6.3 manifest") {
    auto m = load("redistrib_12.6.3.json", "cuda");
    CHECK(m.product == "cuda");
    CHECK(m.release_label == "12.6.3");
    CHECK(m.release_date == "2024-11-20");
    const auto& cccl = m.components.at("cuda_cccl");
    CHECK(cccl.version == "12.6.77");
    CHECK(cccl.name == "CXX Core Compute Libraries");
    auto* a = cccl.find("linux-x86_64");
    REQUIRE(a);
    CHECK(a->relative_path == "cuda_cccl/linux-x86_64/cuda_cccl-linux-x86_64-12.6.77-archive.tar.xz");
    CHECK(a->sha256 == "9c3145ef01f73e50c0f5fcf923f0899c847f487c529817daa8f8b1a3ecf20925");
    CHECK(a->size == 934952);
    CHECK(cccl.find("windows-x86_64")->size == 2929962);
    CHECK(m.components.count("cuda_cudart"));
    auto def = default_cuda_components(m, "linux-x86_64");
    CHECK(def.front() == "cuda_cudart");
    CHECK(std::find(def.begin(), def.end(), "cuda_nvcc") != def.end());
    CHECK(std::find(def.begin(), def.end(), "libcublas") != def.end());
    CHECK(std::find(def.begin(), def.end(), "cuda_crt") == def.end());  // not in 12.x
    CHECK(std::find(def.begin(), def.end(), "nsight_systems") == def.end());
}

TEST_CASE("visual_studio_integration: in Windows installs, placed where NVIDIA's installer has it") {
    auto m = load("redistrib_12.6.3.json", "cuda");
    auto win = default_cuda_components(m, "windows-x86_64");
    auto lin = default_cuda_components(m, "linux-x86_64");
    CHECK(std::find(win.begin(), win.end(), "visual_studio_integration") != win.end());
    CHECK(std::find(lin.begin(), lin.end(), "visual_studio_integration") == lin.end());
    const auto dir = std::filesystem::temp_directory_path() / ("cudaenv-vsi-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "visual_studio_integration" / "MSBuildExtensions");
    std::ofstream(dir / "visual_studio_integration" / "MSBuildExtensions" / "CUDA 12.6.props") << "<Project />";
    std::filesystem::create_directories(dir / "licenses" / "visual_studio_integration");
    place_component("cuda_cudart", dir);
    CHECK(fsx::is_dir(dir / "visual_studio_integration"));
    place_component("visual_studio_integration", dir);
    CHECK(fsx::is_file(dir / "extras" / "visual_studio_integration" / "MSBuildExtensions" / "CUDA 12.6.props"));
    CHECK_FALSE(fsx::exists(dir / "visual_studio_integration"));
    CHECK(fsx::is_dir(dir / "licenses" / "visual_studio_integration"));  // the licences stay at the top
    std::filesystem::remove_all(dir);
}

TEST_CASE("CUDA 13.0.2 manifest: split compiler components are in the default set") {
    auto m = load("redistrib_13.0.2.json", "cuda");
    CHECK(m.release_label == "13.0.2");
    auto def = default_cuda_components(m, "linux-x86_64");
    for (const char* c : {"cuda_crt", "libnvvm", "cuda_nvcc", "cuda_cudart"})
        CHECK(std::find(def.begin(), def.end(), c) != def.end());
}

TEST_CASE("cuDNN 8.9.7 manifest") {
    auto m = load("redistrib_8.9.7.json", "cudnn");
    CHECK(m.product == "cudnn");
    CHECK(m.release_label == "8.9.7");
    const auto& c = m.components.at("cudnn");
    CHECK(c.version == "8.9.7.29");
    auto* w11 = c.find("windows-x86_64", 11);
    REQUIRE(w11);
    CHECK(w11->relative_path == "cudnn/windows-x86_64/cudnn-windows-x86_64-8.9.7.29_cuda11-archive.zip");
    CHECK(w11->sha256 == "5e45478efe71a96329e6c0d2a3a2f79c747c15b2a51fead4b84c89b02cbf1671");
    CHECK(w11->size == 704240064);
    auto* l12 = c.find("linux-x86_64", 12);
    REQUIRE(l12);
    CHECK(l12->size == 864984964);
    CHECK(c.find("linux-x86_64", 13) == nullptr);
    CHECK(c.find("linux-x86_64") == nullptr);  // cuDNN entries always name a CUDA variant
}

TEST_CASE("cuDNN 9.8.0 manifest: cuda_variant after the platform keys") {
    auto m = load("redistrib_9.8.0.json", "cudnn");
    const auto& c = m.components.at("cudnn");
    CHECK(c.find("linux-x86_64", 11));
    CHECK(c.find("linux-x86_64", 12));
    CHECK(c.find("windows-x86_64", 11));
    CHECK(c.find("linux-aarch64", 11) == nullptr);
}

TEST_CASE("cuDNN 9.13.0 manifest: cuda12 and cuda13, cudnn_jit") {
    auto m = load("redistrib_9.13.0.json", "cudnn");
    const auto& c = m.components.at("cudnn");
    CHECK(c.version == "9.13.0.50");
    CHECK(c.find("linux-x86_64", 11) == nullptr);
    auto* w13 = c.find("windows-x86_64", 13);
    REQUIRE(w13);
    CHECK(w13->size == 337906764);
    CHECK(m.components.count("cudnn_jit"));
}

TEST_CASE("malformed manifests are clear errors") {
    auto bad = [](const std::string& text) { CHECK_THROWS_AS(Manifest::parse(text, "m.json"), Error); };
    bad("not json");
    bad("[1,2]");
    bad(R"({"release_label":"1"})");
    bad(R"({"release_label":"1","x":1e400})");  // a number too large for a double: found by the manifest fuzz target
    const std::string sha(64, 'a');
    bad(R"({"c":{"linux-x86_64":{"relative_path":"../../etc/passwd","sha256":")" + sha + R"(","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"/abs/x","sha256":")" + sha + R"(","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":"abc","size":"1"}}})");
    bad(R"({"c":{"linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":")" + sha + R"(","size":"12x"}}})");
    auto ok = Manifest::parse(
        R"({"c":{"version":"1.0","linux-x86_64":{"relative_path":"c/x.tar.xz","sha256":")" + sha + R"(","size":42}}})",
        "m.json", "11.8.0", "cuda");
    CHECK(ok.release_label == "11.8.0");  // from the file name when the manifest has none
    CHECK(ok.components.at("c").artifacts.at(0).size == 42);
    try {
        Manifest::parse("{", "redistrib_1.json");
    } catch (const Error& e) {
        CHECK(std::string(e.what()).find("redistrib_1.json") != std::string::npos);
    }
}
