// One case per layout recognizer (core/layout): what it recognizes, what it
// leaves to the next one, and where it says the libraries are.
#include <doctest/doctest.h>

#include <algorithm>

#include "core/layout/layout.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "test_support.hpp"

using namespace cudaenv;
using namespace cudaenv::layout;
using testsupport::TempDir;
using testsupport::write;

namespace {

bool has(const std::vector<fs::path>& dirs, const fs::path& d) { return std::find(dirs.begin(), dirs.end(), d) != dirs.end(); }

fs::path pip_package(const fs::path& tmp, const char* package, const char* dist_info) {
    auto site = tmp / "venv" / "lib" / "python3.12" / "site-packages";
    auto root = fsx::absolute_normal(site / "nvidia" / package);
    write(root / "__init__.py");
    write(site / dist_info / "METADATA", "Name: x\n");
    return root;
}

}  // namespace

TEST_CASE("layout names round-trip, unknown names are refused") {
    for (const auto* r : toolkit_recognizers()) CHECK(toolkit_layout(name(r->layout)) == r->layout);
    for (const auto* r : cudnn_recognizers()) CHECK(cudnn_layout(name(r->layout)) == r->layout);
    CHECK(name(ToolkitLayout::runtime_only) == "runtime-only");
    CHECK_FALSE(toolkit_layout("Standard").has_value());
    CHECK_FALSE(cudnn_layout("").has_value());
    // The catch-alls come last.
    CHECK(toolkit_recognizers().back() == &toolkit_standard);
    CHECK(cudnn_recognizers().back() == &cudnn_flat);
}

TEST_CASE("toolkit layout: debian") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "usr" / "lib" / "nvidia-cuda-toolkit");
    write(root / "bin" / "nvcc");
    CHECK(&recognize_toolkit(root) == &toolkit_debian);
    CHECK_FALSE(toolkit_debian.recognizes(fsx::absolute_normal(tmp / "cuda-12.4")));
    // Its libraries are in the system folder, searched first.
    const auto system = platform::system_library_dirs().front();
    CHECK(toolkit_debian.lib_dirs(root).front() == system);
    CHECK(toolkit_debian.outside_dirs() == std::vector<fs::path>{system});
    CHECK(has(toolkit_debian.headers(root), "/usr/include/cuda_runtime_api.h"));
}

TEST_CASE("toolkit layout: pip") {
    TempDir tmp("layout");
    auto root = pip_package(tmp.path(), "cuda_runtime", "nvidia_cuda_runtime_cu12-12.6.77.dist-info");
    CHECK(&recognize_toolkit(root) == &toolkit_pip);
    auto meta = pip_dist_info(root, "nvidia_cuda_runtime");
    REQUIRE(meta.has_value());
    CHECK(meta->first == *Version::parse("12.6.77"));
    CHECK(meta->second == 12);
    CHECK(has(toolkit_pip.lib_dirs(root), root / "lib"));
    CHECK(toolkit_pip.outside_dirs().empty());
    // The same folder without its dist-info is not a wheel.
    auto bare = fsx::absolute_normal(tmp / "other" / "nvidia" / "cuda_runtime");
    write(bare / "bin" / "nvcc");
    CHECK_FALSE(toolkit_pip.recognizes(bare));
    CHECK(&recognize_toolkit(bare) == &toolkit_standard);
}

TEST_CASE("a wheel's dist-info name is read by a bounded scan, in either case (issue 40 R1)") {
    TempDir tmp("layout");
    auto site = tmp / "venv" / "lib" / "python3.12" / "site-packages";
    auto root = fsx::absolute_normal(site / "nvidia" / "cudnn");
    write(root / "__init__.py");
    // Names that only look like one come first in no order: none of them is taken.
    for (const char* odd : {"nvidia_cudnn_cu-9.1.0.dist-info", "nvidia_cudnn_cu12-.dist-info",
                            "nvidia_cudnn_cu12-9.1.0a.dist-info", "nvidia_cudnn_cu12_9.1.0.dist-info",
                            "nvidia_cudnn_cux-9.1.0.dist-info", "nvidia_cudnn_cu12-9.1.0.dist-infox"})
        fs::create_directories(site / odd);
    // A name near the longest a folder may have (255 bytes), digits all along.
    fs::create_directories(site / ("nvidia_cudnn_cu" + std::string(225, '1') + "-.dist-info"));
    CHECK_FALSE(pip_dist_info(root, "nvidia_cudnn").has_value());
    fs::create_directories(site / "NVIDIA_CUDNN_CU12-9.6.0.74.DIST-INFO");
    auto meta = pip_dist_info(root, "nvidia_cudnn");
    REQUIRE(meta.has_value());
    CHECK(meta->first == *Version::parse("9.6.0.74"));
    CHECK(meta->second == 12);
}

TEST_CASE("toolkit layout: runtime-only") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "app");
    write(root / "libcudart.so.12.6.77");
    CHECK(&recognize_toolkit(root) == &toolkit_runtime_only);
    CHECK(has(toolkit_runtime_only.lib_dirs(root), root));
    auto full = fsx::absolute_normal(tmp / "cuda-12.6");
    write(full / "lib64" / "libcudart.so.12.6.77");
    CHECK_FALSE(toolkit_runtime_only.recognizes(full));
}

TEST_CASE("toolkit layout: standard") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "cuda-12.6");
    write(root / "bin" / "nvcc");
    CHECK(&recognize_toolkit(root) == &toolkit_standard);
    auto dirs = toolkit_standard.lib_dirs(root);
    CHECK(dirs.front() == root / "lib64");
    CHECK(has(dirs, root / "targets" / "x86_64-linux" / "lib"));
    CHECK(has(toolkit_standard.headers(root), root / "include" / "cuda_runtime_api.h"));
    CHECK(toolkit_standard.outside_dirs().empty());
}

TEST_CASE("cudnn layout: installer") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "CUDNN" / "v9.4");
    write(root / "bin" / "12.6" / "cudnn64_9.dll");
    CHECK(&recognize_cudnn(root, "12.6") == &cudnn_installer);
    CHECK_FALSE(cudnn_installer.recognizes(root, ""));
    CHECK(has(cudnn_installer.lib_dirs(root, "12.6"), root / "bin" / "12.6" / "x64"));
    CHECK(cudnn_installer.include_dirs(root, "12.6").front() == root / "include" / "12.6");
}

TEST_CASE("cudnn layout: pip") {
    TempDir tmp("layout");
    auto root = pip_package(tmp.path(), "cudnn", "nvidia_cudnn_cu12-9.1.0.70.dist-info");
    write(root / "include" / "cudnn_version.h");
    CHECK(&recognize_cudnn(root, "") == &cudnn_pip);  // before archive, though it has include/
    CHECK(has(cudnn_pip.lib_dirs(root, ""), root / "lib"));
    CHECK(cudnn_pip.outside_dirs().empty());
}

TEST_CASE("cudnn layout: system") {
    const auto lib = platform::system_library_dirs().front();
    CHECK(&recognize_cudnn(lib, "") == &cudnn_system);
    CHECK(&recognize_cudnn("/usr", "") == &cudnn_system);
    CHECK(has(cudnn_system.include_dirs("/usr", ""), "/usr/include"));
    CHECK(cudnn_system.outside_dirs() == platform::system_library_dirs());
    CHECK_FALSE(cudnn_system.recognizes("/opt/cudnn", ""));
}

TEST_CASE("cudnn layout: archive") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "cudnn-linux-x86_64-8.9.7.29_cuda11-archive");
    write(root / "include" / "cudnn_version.h");
    write(root / "lib" / "libcudnn.so.8.9.7");
    CHECK(&recognize_cudnn(root, "") == &cudnn_archive);
    auto dirs = cudnn_archive.lib_dirs(root, "");
    CHECK(has(dirs, root / "lib"));
    CHECK(has(dirs, root / "bin" / "x64"));  // Windows zips >= 9.18
    CHECK(cudnn_archive.outside_dirs().empty());
}

TEST_CASE("cudnn layout: flat") {
    TempDir tmp("layout");
    auto root = fsx::absolute_normal(tmp / "libs");
    write(root / "libcudnn.so.9.1.0");
    CHECK_FALSE(cudnn_archive.recognizes(root, ""));
    CHECK(&recognize_cudnn(root, "") == &cudnn_flat);
    CHECK(has(cudnn_flat.lib_dirs(root, ""), root));
}
