// Unit tests of the child-process runner (platform/process).
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

#ifndef _WIN32  // POSIX sh and signals
TEST_CASE("run_process") {
    auto env = platform::environment();
    SUBCASE("output and exit code") {
        auto r = platform::run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, env, std::chrono::seconds(10));
        CHECK(r.started);
        CHECK(r.exit_code == 3);
        CHECK(r.out == "out\n");
        CHECK(r.err == "err\n");
    }
    SUBCASE("a crash is reported by signal") {
        auto r = platform::run_process({"sh", "-c", "kill -SEGV $$"}, env, std::chrono::seconds(10));
        CHECK(r.signal_name == "SIGSEGV");
    }
    SUBCASE("a hang is killed at the timeout, children too") {
        auto r = platform::run_process({"sh", "-c", "sleep 30 & sleep 30"}, env, std::chrono::milliseconds(300));
        CHECK(r.timed_out);
        CHECK(r.seconds < 5);
    }
    SUBCASE("the environment is exactly the one given") {
        std::vector<std::pair<std::string, std::string>> e = {{"PATH", "/usr/bin:/bin"}, {"ONLY", "this"}};
        auto r = platform::run_process({"sh", "-c", "echo $ONLY; echo ${HOME:-unset}"}, e, std::chrono::seconds(10));
        CHECK(r.out == "this\nunset\n");
    }
    SUBCASE("a missing program") {
        auto r = platform::run_process({"no-such-program-cudaenv"}, env, std::chrono::seconds(10));
        CHECK_FALSE(r.started);
        CHECK(r.error.find("not found") != std::string::npos);
    }
}
#endif
