// Which files become tool shims, and where `which` finds a tool, under both OS rules.
#include <doctest/doctest.h>

#include "store/rehash.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"

using namespace cudaenv;
namespace fs = std::filesystem;

TEST_CASE("toolkit_tool_of: only NVIDIA's toolkit programs") {
    constexpr auto P = PathStyle::posix;
    constexpr auto W = PathStyle::windows;
    for (const char* t : {"nvcc", "ptxas", "fatbinary", "nvlink", "cuobjdump", "nvdisasm", "cu++filt", "cuda-gdb",
                          "compute-sanitizer", "ncu", "nsys", "nvprune", "bin2c"})
        CHECK(toolkit_tool_of(std::string("/opt/env/bin/") + t, P) == t);
    // What a conda-like environment keeps beside nvcc.
    for (const char* t : {"python3", "gcc", "ls", "git", "cudaenv", "libcudart.so.12", "nvcc.profile"})
        CHECK(toolkit_tool_of(std::string("/opt/env/bin/") + t, P) == "");
    SUBCASE("windows: .exe in any case, nothing else") {
        CHECK(toolkit_tool_of("C:\\CUDA\\v12.6\\bin\\nvcc.exe", W) == "nvcc");
        CHECK(toolkit_tool_of("C:\\CUDA\\v12.6\\bin\\NVCC.EXE", W) == "nvcc");
        CHECK(toolkit_tool_of("C:\\CUDA\\v12.6\\bin\\nvcc", W) == "");
        CHECK(toolkit_tool_of("C:\\CUDA\\v12.6\\bin\\cudart64_12.dll", W) == "");
        CHECK(toolkit_tool_of("C:\\env\\python.exe", W) == "");
    }
    CHECK(nvidia_tool_names().count("nvcc") == 1);
}

TEST_CASE("tool_name_of: the name a shim runs under") {
    CHECK(tool_name_of("/s/shims/nvcc", PathStyle::posix) == "nvcc");
    CHECK(tool_name_of("/s/shims/nvcc.exe", PathStyle::posix) == "nvcc.exe");
    CHECK(tool_name_of("C:\\s\\shims\\nvcc.exe", PathStyle::windows) == "nvcc");
    CHECK(tool_name_of("C:\\s\\shims\\ptxas.EXE", PathStyle::windows) == "ptxas");
}

TEST_CASE("find_tool_in: `which` under both OS rules") {
    testsupport::TempDir t("which");
    auto a = t / "a", b = t / "b";
    auto exe = [](const fs::path& p) {
        testsupport::write(p, "#!/bin/sh\n");
        fs::permissions(p, fs::perms::owner_all);
    };
    exe(b / "nvcc.exe");  // what a Windows toolkit's bin holds
    exe(b / "ptxas");
    CHECK(!find_tool_in({a, b}, "nvcc", PathStyle::posix));
    CHECK(find_tool_in({a, b}, "nvcc", PathStyle::windows) == b / "nvcc.exe");
    CHECK(find_tool_in({a, b}, "ptxas", PathStyle::windows) == b / "ptxas");
    SUBCASE("the first folder wins, the name as given before .exe") {
        exe(a / "nvcc");
        CHECK(find_tool_in({a, b}, "nvcc", PathStyle::posix) == a / "nvcc");
        CHECK(find_tool_in({b, a}, "nvcc", PathStyle::windows) == b / "nvcc.exe");
        exe(b / "nvcc");
        CHECK(find_tool_in({b, a}, "nvcc", PathStyle::windows) == b / "nvcc");
    }
    SUBCASE("a file that cannot run is passed over") {
        if constexpr (platform::is_windows) return;  // a permission bit, not a Windows notion
        testsupport::write(a / "fatbinary");
        fs::permissions(a / "fatbinary", fs::perms::owner_read | fs::perms::owner_write);
        exe(b / "fatbinary");
        CHECK(find_tool_in({a, b}, "fatbinary", PathStyle::posix) == b / "fatbinary");
    }
}
