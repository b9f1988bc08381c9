// Unit tests of the driver's text as nvidia-smi, /proc and /sys print it (platform/nvidia_driver).
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "nvidia/driver.hpp"
#include "platform/nvidia_driver.hpp"
#include "gpu/code_cache.hpp"
#include "gpu/install_choice.hpp"
#include "gpu/machine.hpp"
#include "gpu/pair_code.hpp"
#include "gpu/table.hpp"
#include "gpu/verdict.hpp"
#include "test_support.hpp"
#include "util/binary_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::TempDir;
using testsupport::write;

TEST_CASE("driver text: nvidia-smi in both wordings, /proc and /sys") {
    auto data = [](const char* name) { return *fsx::read_file(fs::path(CUDAENV_GPU_TEST_DATA) / name); };
    CHECK(nvidia::parse_nvidia_smi(data("nvidia-smi-595.txt")) == std::pair<std::string, std::string>{"595.71.05", "13.2"});
    CHECK(nvidia::parse_nvidia_smi(data("nvidia-smi-610.txt")) == std::pair<std::string, std::string>{"610.43.02", "13.3"});
    CHECK(nvidia::parse_nvidia_smi("NVIDIA-SMI has failed").first.empty());
    CHECK(platform::parse_proc_driver_version(data("proc-driver-nvidia-version.txt")) == "580.95.05");
    CHECK(platform::parse_sys_module_version(data("sys-module-nvidia-version.txt")) == "580.159.04");
    CHECK_FALSE(platform::parse_sys_module_version("garbage\n"));
}

TEST_CASE("the kernel module's driver version") {
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct 2 2025\n") ==
          "580.159.04");
    // The open kernel module names its architecture first.
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build\n") ==
          "580.95.05");
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54 Release") == "550.54");
    CHECK_FALSE(platform::parse_proc_driver_version("nothing here").has_value());
}
