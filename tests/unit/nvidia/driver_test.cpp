// Unit tests of nvidia-smi's text parsed (nvidia/driver).
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

TEST_CASE("parse_nvidia_smi") {
    auto [drv, cuda] = parse_nvidia_smi(
        "| NVIDIA-SMI 580.159.04             Driver Version: 580.159.04     CUDA Version: 13.0     |\n");
    CHECK(drv == "580.159.04");
    CHECK(cuda == "13.0");
    auto [d2, c2] = parse_nvidia_smi("garbage");
    CHECK(d2.empty());
    CHECK(c2.empty());
}
