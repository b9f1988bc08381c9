// Unit tests of library names per OS and major (core/cudalibs).
#include <doctest/doctest.h>

#include <cmath>

#include "nvidia/compat.hpp"
#include "check/conv_support.hpp"
#include "nvidia/driver.hpp"
#include "check/doctor.hpp"
#include "check/names.hpp"
#include "check/probe.hpp"
#include "check/probe_internal.hpp"
#include "check/runner.hpp"
#include "platform/nvidia_driver.hpp"
#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/embedded.hpp"

using namespace cudaenv;
using namespace cudaenv::check;
using namespace cudaenv::nvidia;

TEST_CASE("library names per OS and major") {
    using namespace cudaenv::cudalibs;
    CHECK(cudart_name(11, false) == "libcudart.so.11.0");
    CHECK(cudart_name(12, false) == "libcudart.so.12");
    CHECK(cudart_name(11, true) == "cudart64_110.dll");
    CHECK(cudart_name(13, true) == "cudart64_13.dll");
    CHECK(cudnn_names(8, false).size() == 7);
    CHECK(cudnn_names(9, false).size() == 8);
    CHECK(cudnn_names(9, false).front() == "libcudnn.so.9");
    CHECK(cudnn_names(9, true)[1] == "cudnn_graph64_9.dll");
    CHECK(is_linux_lib("libcudnn.so.9.14.0", linux_cudnn));
    CHECK(is_linux_lib("libcudnn.so", linux_cudnn));
    CHECK_FALSE(is_linux_lib("libcudnn_ops.so.9", linux_cudnn));
    CHECK(linux_lib_full_version("libcudart.so.12.6.77", linux_cudart)->str() == "12.6.77");
    CHECK_FALSE(linux_lib_full_version("libcudart.so.12", linux_cudart).has_value());
    CHECK(windows_dll_digits("CUDART64_110.DLL", windows_cudart) == "110");
    CHECK_FALSE(windows_dll_digits("cudart64_12.dll.bak", windows_cudart).has_value());
    CHECK(cuda_major_of_cudart_digits("110") == 11);
    CHECK(cuda_major_of_cudart_digits("12") == 12);
    CHECK(is_toolkit_library("libcufft.so.11", "cufft", false));
    CHECK_FALSE(is_toolkit_library("libcufftw.so.11", "cufft", false));
    CHECK(is_toolkit_library("cublasLt64_12.dll", "cublasLt", true));
    CHECK(cudnn_major_of("libcudnn.so.8.9.7", false) == 8);
    CHECK(cudnn_major_of("cudnn64_9.dll", true) == 9);
    CHECK_FALSE(cudnn_major_of("libcudnn.so", false).has_value());
    CHECK_FALSE(cudnn_major_of("libcudnn_ops.so.9", false).has_value());
    CHECK(is_library_file("libcublas.so.12.6.4.1"));
    CHECK(is_library_file("libcudnn.so"));
    CHECK(is_library_file("CUDNN64_9.DLL"));
    CHECK_FALSE(is_library_file("cudnn.cp312-win_amd64.pyd"));
    CHECK_FALSE(is_library_file("libcudnn_static.a"));
    CHECK(needs_zlibwapi(*Version::parse("8.3.0")));
    CHECK_FALSE(needs_zlibwapi(*Version::parse("9.0.0")));
    CHECK(cudnn_version_headers().front() == "cudnn_version.h");
}
