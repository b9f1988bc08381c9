#include <doctest/doctest.h>

#include "test_support.hpp"

#include "core/version.hpp"

using cudaenv::Version;

namespace {
using testsupport::V;
}  // namespace

TEST_CASE("Version::parse") {
    SUBCASE("one to four fields") {
        CHECK(V("12").parts() == std::vector<int>{12});
        CHECK(V("11.8").parts() == std::vector<int>{11, 8});
        CHECK(V("12.6.3").parts() == std::vector<int>{12, 6, 3});
        CHECK(V("8.9.7.29").parts() == std::vector<int>{8, 9, 7, 29});
        CHECK(V("0").parts() == std::vector<int>{0});
    }
    SUBCASE("str gives the canonical text back") {
        CHECK(V("12.6.3").str() == "12.6.3");
        CHECK(V("9.1.0.70").str() == "9.1.0.70");
        CHECK(V("11.8.20220929").str() == "11.8.20220929");
    }
    SUBCASE("rejects malformed text") {
        for (const char* bad : {"", ".", "12.", ".12", "12..6", "1.2.3.4.5", "12a", "a", " 12", "12 ", "-1", "+1",
                                "12.-6", "1e3", "0x10", "12,6", "１２", "12.6\n", "$(id)"}) {
            CAPTURE(bad);
            CHECK_FALSE(Version::parse(bad).has_value());
        }
    }
    SUBCASE("rejects numbers that do not fit") {
        CHECK_FALSE(Version::parse("99999999999").has_value());
        CHECK_FALSE(Version::parse("12.99999999999999999999").has_value());
        CHECK_FALSE(Version::parse("2147483648").has_value());
        CHECK(Version::parse("999999999").has_value());
    }
}

TEST_CASE("Version::matches") {
    auto v = V("12.6.3");
    SUBCASE("prefixes match") {
        CHECK(v.matches(V("12")));
        CHECK(v.matches(V("12.6")));
        CHECK(v.matches(V("12.6.3")));
        CHECK(v.matches(Version{}));  // the empty prefix matches everything
    }
    SUBCASE("numeric fields, not text prefixes") {
        CHECK_FALSE(v.matches(V("12.60")));
        CHECK_FALSE(v.matches(V("1")));
        CHECK_FALSE(v.matches(V("12.6.30")));
        CHECK_FALSE(V("12.60").matches(V("12.6")));
    }
    SUBCASE("a longer prefix never matches") {
        CHECK_FALSE(v.matches(V("12.6.3.1")));
        CHECK_FALSE(V("12").matches(V("12.0")));
    }
    SUBCASE("four-field cuDNN versions") {
        auto c = V("8.9.7.29");
        CHECK(c.matches(V("8")));
        CHECK(c.matches(V("8.9")));
        CHECK(c.matches(V("8.9.7")));
        CHECK(c.matches(V("8.9.7.29")));
        CHECK_FALSE(c.matches(V("8.9.7.2")));
        CHECK_FALSE(c.matches(V("8.9.70")));
        CHECK_FALSE(c.matches(V("9")));
    }
}

TEST_CASE("Version::operator<=>") {
    SUBCASE("numeric, field by field") {
        CHECK(V("12.10") > V("12.9"));
        CHECK(V("12.6.3") > V("12.6.2"));
        CHECK(V("13") > V("12.9.9"));
        CHECK(V("9.10.2") > V("9.8.0.87"));
        CHECK(V("11.8") < V("12"));
    }
    SUBCASE("a missing field sorts first") {
        CHECK(V("12.6") < V("12.6.0"));
        CHECK(V("8.9.7") < V("8.9.7.29"));
        CHECK(V("12") < V("12.0"));
    }
    SUBCASE("equality") {
        CHECK(V("12.6.3") == V("12.6.3"));
        CHECK(V("12.06") == V("12.6"));
        CHECK_FALSE(V("12.6") == V("12.6.0"));
    }
}

TEST_CASE("Version::prefix") {
    CHECK(V("12.6.3").prefix(2) == V("12.6"));
    CHECK(V("12.6.3").prefix(1) == V("12"));
    CHECK(V("12.6.3").prefix(5) == V("12.6.3"));
    CHECK(V("12.6.3").prefix(0).empty());
    CHECK(V("12.6.3").major() == 12);
    CHECK(V("12.6.3").minor() == 6);
    CHECK(V("12").minor() == 0);
    CHECK(Version{}.major() == 0);
}
