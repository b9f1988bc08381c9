// Unit tests of the probe's fp16 conversion (check/conv).
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

TEST_CASE("float_to_half round trip") {
    for (float f : {0.0f, 1.0f, -2.5f, 0.1f, 65504.0f, 6.1e-5f, -0.333f}) {
        float back = half_to_float(float_to_half(f));
        CHECK(back == doctest::Approx(f).epsilon(1e-3));
    }
    CHECK(float_to_half(1.0f) == 0x3C00);
    CHECK(float_to_half(-2.0f) == 0xC000);
    CHECK(half_to_float(0x7C00) > 1e30f);
}
