#include <doctest/doctest.h>

#include <string>

#include "util/toml_limits.hpp"

using namespace cudaenv;

namespace {

std::string repeat(const std::string& s, size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (size_t i = 0; i < n; ++i) out += s;
    return out;
}

std::string reason(const std::string& text) {
    auto issue = check_toml_limits(text);
    return issue ? issue->reason : "";
}

}  // namespace

TEST_CASE("check_toml_limits passes every valid file cudaenv reads or writes") {
    for (const char* ok : {
             "",
             "# only a comment\n",
             "global = \"12.6+9\"\nmirror = \"https://example.invalid/a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\"\n",
             "[pins]\n\"12.6.3\" = \"9.1.0\"\n'11.8.0' = '8.9.7'\n",
             "[[toolkit]]\npath = 'C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.6'\nversion = \"12.6.3\"\n",
             "[[pair]]\nseconds = 1.25\nchecked_at = 2026-01-31T12:00:00Z\n",
             "a = \"\"\"x\n\"y\" ]]] [[[ # not a comment\n\"\"\"\"\nb = '''y\n''''\n",
             "c = \"\\\"[[[\"\nd = [1.5, 2.5, [3.5], {e = 1}]\n",
             "[ \"t\" . u ]\n[[ v.w ]]\n[\ta]\n[[\"q\"]]\n",
             "x = [\n  [1, 2],\n  [3, 4],\n]\n",
             "\xEF\xBB\xBFkey = 1\r\n[table]\r\n",
             "# caf\xC3\xA9\npath = \"/home/jos\xC3\xA9/\xE5\xB7\xA5\xE5\x85\xB7\" # \xC3\xA9\n'\xC3\xA9' = '\xC3\xA9'\n",
             "a = \"\"\"x\\\n   y \xC3\xA9\"\"\"\n",
         }) {
        INFO(ok);
        CHECK_FALSE(check_toml_limits(ok).has_value());
    }
    // At the limits exactly.
    CHECK_FALSE(check_toml_limits(repeat("a.", 31) + "a = 1\n").has_value());
    CHECK_FALSE(check_toml_limits("a = " + repeat("[", 32) + repeat("]", 32) + "\n").has_value());
}

TEST_CASE("check_toml_limits stops what would crash toml++") {
    SUBCASE("dotted keys: 20,000 parts overflowed the stack, 400,000 segfaulted the release build") {
        for (size_t parts : {33u, 20000u, 400000u}) {
            auto text = repeat("a.", parts - 1) + "a = 1\n";
            auto issue = check_toml_limits(text);
            REQUIRE(issue.has_value());
            CHECK(issue->reason.find("more than 32 parts") != std::string::npos);
            CHECK(issue->line == 1);
        }
        // Quoted parts and spaces around the dots count the same.
        CHECK_FALSE(reason(repeat("\"a\" . ", 40) + "b = 1").empty());
        // Appended, not "[" + repeat(...): GCC 12 at -O3 warns falsely (-Wrestrict) on
        // a literal prepended to a temporary string.
        std::string header = "[";
        header += repeat("a.", 40);
        header += "b]";
        CHECK_FALSE(reason(header).empty());
        CHECK_FALSE(reason("x = {" + repeat("a.", 40) + "b = 1}").empty());
    }
    SUBCASE("nesting") {
        CHECK(reason("a = " + repeat("[", 5000)).find("levels deep") != std::string::npos);
        CHECK(reason("a = " + repeat("{b=", 40)).find("levels deep") != std::string::npos);
    }
    SUBCASE("table headers that reach a toml++ assertion") {
        for (const char* bad : {"[[[x", "[[ [x", "[=", "[\n", "[[\n]]", "[[", "  [ .a]", "[[#]]"}) {
            INFO(bad);
            CHECK_FALSE(reason(bad).empty());
        }
    }
    SUBCASE("non-ASCII outside strings and comments: toml++ 3.3 reaches TOML_UNREACHABLE (UBSan)") {
        for (const char* bad : {"\xC3\xA9 = 1\n", "a = 1\xC3\xA9\n", "a\xC2\xA1 = 1", "  \xE2\x80\x83" "a = 1",
                                "a = \"\"\"x\\\n  \xC3\xA9\"\"\"\n", "a = \"\"\"x\\  \r\n\n\xC3\xA9\"\"\"\n"}) {
            INFO(bad);
            CHECK(reason(bad).find("non-ASCII") != std::string::npos);
        }
    }
    SUBCASE("a value missing where toml++ asserts instead of reporting it") {
        for (const char* bad : {"x = [1.5,}]\n", "x = {y = [}]}\n", "a = ]\n", "a = }\n", "x = [1,,2]\n", "a =\nb = 1\n",
                                "a = # nothing\n", "a = ", "t = {a = ,}\n"}) {
            INFO(bad);
            CHECK(reason(bad).find("a value is missing") != std::string::npos);
        }
        for (const char* ok : {"x = []\n", "x = [1, 2,]\n", "x = [\n  1,\n  # c\n  2,\n]\n", "t = {}\n", "t = {a = [], b = {}}\n"}) {
            INFO(ok);
            CHECK(reason(ok).empty());
        }
    }
    SUBCASE("an unquoted word that is too long") {
        CHECK(reason("a = " + repeat("1", 5000)).find("too long") != std::string::npos);
    }
    SUBCASE("strings that never close") {
        CHECK(reason("a = \"abc\nb = 1").find("not closed") != std::string::npos);
        CHECK(reason("a = '''abc").find("not closed") != std::string::npos);
    }
    SUBCASE("size") {
        TomlLimits small;
        small.max_bytes = 1u << 20;
        auto issue = check_toml_limits(std::string((1u << 20) + 1, ' '), small);
        REQUIRE(issue.has_value());
        CHECK(issue->reason == "the file is larger than 1 MiB");
    }
    SUBCASE("the place is reported 1-based") {
        auto issue = check_toml_limits("ok = 1\n\n  [[[x\n");
        REQUIRE(issue.has_value());
        CHECK(issue->line == 3);
        CHECK(issue->column == 5);
    }
}
