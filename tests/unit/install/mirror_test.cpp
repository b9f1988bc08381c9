// Unit tests of the mirror choice and release listings (install/mirror).
#include <doctest/doctest.h>

#include "test_support.hpp"

#include <archive.h>
#include <archive_entry.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

#include "install/archive.hpp"
#include "install/fetch.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"
#include "install/sha256.hpp"
#include "platform/lock.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using namespace cudaenv::install;
namespace fs = std::filesystem;

TEST_CASE("mirror choice and release listing") {
    CHECK(choose_mirror("/m", std::string("/e"), std::string("/c")) == "/m");
    CHECK(choose_mirror("", std::string("/e"), std::string("/c")) == "/e");
    CHECK(choose_mirror("", std::nullopt, std::string("/c")) == "/c");
    CHECK(choose_mirror("", std::nullopt, std::nullopt) == kDefaultMirror);
    auto rs = releases_from_listing(
        R"(<a href="redistrib_12.6.3.json">redistrib_12.6.3.json</a> <a href="redistrib_11.8.0.json">x</a>)"
        R"(<a href="redistrib_13.0.2.json">redistrib_13.0.2.json</a> <a href="cuda_cudart/">cuda_cudart/</a>)");
    REQUIRE(rs.size() == 3);
    CHECK(rs[0].str() == "13.0.2");
    CHECK(rs[2].str() == "11.8.0");
    // Issue 40, R1: `redistrib_` and 30,000 digits crashed std::regex (SIGSEGV, a frame per character).
    auto bomb = "<a href=\"redistrib_" + std::string(30000, '1') + ".json\">x</a>" + std::string(1 << 20, ' ') +
                "<a href=\"redistrib_" + std::string(1 << 20, '.') + "\"> redistrib_12.6.3.json redistrib_12.json";
    auto listed = releases_from_listing(bomb);
    REQUIRE(listed.size() == 2);
    CHECK(listed[0].str() == "12.6.3");
    CHECK(listed[1].str() == "12");
    std::string many;
    for (size_t i = 0; i <= kMaxListedReleases; ++i) many += "redistrib_1." + std::to_string(i) + ".json ";
    CHECK_THROWS_WITH_AS(releases_from_listing(many), doctest::Contains("more than 10000 releases"), Error);
}
