#include <doctest/doctest.h>

#include "test_support.hpp"

#include "core/spec.hpp"
#include "util/error.hpp"

using cudaenv::Spec;
using cudaenv::Version;

namespace {
using testsupport::S;
}  // namespace

TEST_CASE("Spec::parse") {
    SUBCASE("cuda only") {
        auto s = S("11.8");
        CHECK_FALSE(s.system);
        CHECK(s.cuda.parts() == std::vector<int>{11, 8});
        CHECK(s.cudnn_kind == Spec::Cudnn::default_);
        CHECK(S("12").cuda.parts() == std::vector<int>{12});
        CHECK(S("12.4.1").cuda.parts() == std::vector<int>{12, 4, 1});
    }
    SUBCASE("cuda + cudnn") {
        auto s = S("11.8+8.9.7");
        CHECK(s.cuda.parts() == std::vector<int>{11, 8});
        CHECK(s.cudnn_kind == Spec::Cudnn::version);
        CHECK(s.cudnn.parts() == std::vector<int>{8, 9, 7});
        auto p = S("12+9");
        CHECK(p.cuda.parts() == std::vector<int>{12});
        CHECK(p.cudnn.parts() == std::vector<int>{9});
        CHECK(S("12.6.3+9.1.0.70").cudnn.parts() == std::vector<int>{9, 1, 0, 70});
    }
    SUBCASE("+none") {
        auto s = S("12.4+none");
        CHECK(s.cudnn_kind == Spec::Cudnn::none);
        CHECK(s.cudnn.empty());
    }
    SUBCASE("system") {
        auto s = S("system");
        CHECK(s.system);
        CHECK(s.cuda.empty());
    }
    SUBCASE("str round trip") {
        for (const char* t : {"11.8", "12", "12.4.1", "11.8+8.9.7", "12+9", "12.4+none", "system", "12.6.3+9.1.0.70"}) {
            CAPTURE(t);
            CHECK(S(t).str() == t);
            CHECK(Spec::parse(S(t).str()) == S(t));
        }
    }
    SUBCASE("rejects shell syntax and garbage") {
        for (const char* bad :
             {"", " ", "$(touch /tmp/x)", "`id`", "12;rm", "12; rm -rf ~", "12.4 ", " 12.4", "12 .4", "12.", "+9", "12+",
              "12+9+1", "12++9", "12.4+None", "12.4+none+1", "System", "SYSTEM", "system+9", "system ", "1.2.3.4.5",
              "12+1.2.3.4.5", "99999999999", "12+99999999999", "12\n", "12\t", "12|x", "12&", "12>x", "${X}", "~",
              "12.4+none;", "latest", "v12", "12.x", "12.*"}) {
            CAPTURE(bad);
            CHECK_FALSE(Spec::parse(bad).has_value());
        }
    }
    SUBCASE("a NUL byte is not a spec") {
        using namespace std::string_view_literals;
        CHECK_FALSE(Spec::parse("12\0;id"sv).has_value());
    }
}

TEST_CASE("Spec::parse_or_throw") {
    CHECK(Spec::parse_or_throw("12.4").cuda.parts() == std::vector<int>{12, 4});
    SUBCASE("usage error with a hint, control characters hidden") {
        try {
            Spec::parse_or_throw("12\n$(id)");
            FAIL("no exception");
        } catch (const cudaenv::UsageError& e) {
            std::string msg = e.what();
            CHECK(msg.find("invalid spec") != std::string::npos);
            CHECK(msg.find('\n') == std::string::npos);
            CHECK(e.exit_code() == 2);
            CHECK_FALSE(e.hint().empty());
        }
    }
}

TEST_CASE("Spec origins: 13.0@pip, 12.6@store+9.8@system") {
    auto s = S("13.0@pip");
    CHECK(s.cuda.parts() == std::vector<int>{13, 0});
    CHECK(s.cuda_origin == "pip");
    auto t = S("12.6.3@cuda-12.6+9.8.0@system");
    CHECK(t.cuda_origin == "cuda-12.6");
    CHECK(t.cudnn.parts() == std::vector<int>{9, 8, 0});
    CHECK(t.cudnn_origin == "system");
    CHECK(S("12@store+none").cudnn_kind == Spec::Cudnn::none);
    for (const char* text : {"13.0@pip", "12.6.3@cuda-12.6+9.8.0@system", "12+9@x_1", "12@store+none"}) {
        CAPTURE(text);
        CHECK(S(text).str() == text);
    }
    for (const char* bad : {"13.0@", "13.0@Pip", "13.0@-x", "13.0@.x", "13@pip@x", "13@a b", "13@$(x)", "13@a/b",
                            "13@a;b", "system@pip", "12+none@pip", "@pip", "13.0@aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}) {
        CAPTURE(bad);
        CHECK_FALSE(Spec::parse(bad).has_value());
    }
}
