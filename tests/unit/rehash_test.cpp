// Which files become tool shims, under both OS rules.
#include <doctest/doctest.h>

#include "core/rehash.hpp"

using namespace cudaenv;

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
