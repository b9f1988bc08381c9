// Unit tests of install's choice of release (gpu/install_choice).
#include <doctest/doctest.h>

#include "gpu/install_choice.hpp"
#include "gpu_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using testsupport::planned;

TEST_CASE("install's choice: the newest release that runs here") {
    auto gtx1080 = planned({61});
    std::vector<Version> rs = {*Version::parse("9.11.0"), *Version::parse("9.10.2"), *Version::parse("8.9.7")};
    CHECK(newest_that_runs("cudnn", rs, *Version::parse("9"), gtx1080)->str() == "9.10.2");
    std::ostringstream err;
    auto kept = rs;
    keep_releases_that_run("cudnn", kept, *Version::parse("9"), gtx1080, false, err);
    CHECK(kept.size() == 2);
    CHECK(kept.front().str() == "9.10.2");
    CHECK(err.str().find("taking 9.10.2") != std::string::npos);
    auto only = rs;
    CHECK_THROWS_WITH_AS(keep_releases_that_run("cudnn", only, *Version::parse("9.11"), gtx1080, false, err),
                         doctest::Contains("no cuDNN release matching 9.11 runs here"), Error);
    only = rs;
    keep_releases_that_run("cudnn", only, *Version::parse("9.11"), gtx1080, true, err);  // --force
    CHECK(only.size() == 3);
    auto turing = planned({75});
    kept = rs;
    keep_releases_that_run("cudnn", kept, *Version::parse("9"), turing, false, err);
    CHECK(kept.size() == 3);
}
