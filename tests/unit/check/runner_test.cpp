// Unit tests of the result assembled from a probe child's output, after a crash or hang (check/runner).
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

TEST_CASE("assemble blames the step a crashed child was in") {
    std::string out = std::string(probe_marker) + R"({"step":"files","status":"ok","summary":"9 of 9"})" + "\n" +
                      "noise printed by a library\n" + probe_marker +
                      R"({"step":"load","status":"ok","summary":"loaded"})" + "\n" + probe_marker +
                      R"({"step":"origins","status":"ok","summary":"fine"})" + "\n";
    auto r = assemble("12.6+9.8", out, "Segmentation fault\n", "crashed (SIGSEGV)", true);
    CHECK_FALSE(r.pass);
    REQUIRE(r.step("versions"));
    CHECK(r.step("versions")->status == Status::fail);
    CHECK(r.step("versions")->summary.find("crashed (SIGSEGV)") != std::string::npos);
    CHECK(r.summary.starts_with("versions:"));
    CHECK_FALSE(r.step("gpu"));

    auto t = assemble("x", out, "", "timed out after 3.00 s", true);
    CHECK(t.step("versions")->advice.find("hung") != std::string::npos);

    std::string good = out + probe_marker + R"({"step":"versions","status":"ok","summary":"v"})" + "\n" + probe_marker +
                       R"({"step":"gpu","status":"ok","summary":"g"})" + "\n" + probe_marker +
                       R"({"step":"conv","status":"ok","summary":"fp32 1 ms","details":{"median_ms":1.0}})" + "\n";
    auto p = assemble("x", good, "", "", true);
    CHECK(p.pass);
    CHECK(p.summary == "fp32 1 ms");
    auto nocudnn = assemble("x", out + probe_marker + R"({"step":"versions","status":"ok"})" + "\n" + probe_marker +
                                     R"({"step":"gpu","status":"ok"})" + "\n" + probe_marker +
                                     R"({"step":"conv","status":"skip"})" + "\n",
                            "", "", false);
    CHECK(nocudnn.pass);
}
