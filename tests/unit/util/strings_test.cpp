#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "core/detect.hpp"
#include "platform/lock.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"
#include "util/elf.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using testsupport::TempDir;
namespace fs = std::filesystem;

TEST_CASE("str helpers") {
    SUBCASE("split keeps empty fields") {
        CHECK(str::split("", ':') == std::vector<std::string>{""});
        CHECK(str::split("a::b:", ':') == std::vector<std::string>{"a", "", "b", ""});
    }
    SUBCASE("join") {
        CHECK(str::join({}, ", ").empty());
        CHECK(str::join({"a", "", "b"}, ", ") == "a, , b");
    }
    SUBCASE("trim") {
        CHECK(str::trim(" \t\r\n x y \f\v") == "x y");
        CHECK(str::trim("   ").empty());
        CHECK(str::trim("").empty());
    }
    SUBCASE("ascii case") {
        CHECK(str::to_lower_ascii("C:\\Program Files\\ÄÖ") == "c:\\program files\\ÄÖ");
        CHECK(str::iequals_ascii("CUDA", "cuda"));
        CHECK_FALSE(str::iequals_ascii("CUDA", "cud"));
        CHECK(str::starts_with_icase("Program Files", "PROGRAM"));
        CHECK_FALSE(str::starts_with_icase("Pro", "Program"));
    }
    SUBCASE("parse_int: non-negative decimals that fit") {
        int v = -1;
        CHECK(str::parse_int("0", v));
        CHECK(v == 0);
        CHECK(str::parse_int("2147483647", v));
        CHECK(v == 2147483647);
        for (const char* bad : {"", "-1", "+1", " 1", "1 ", "2147483648", "99999999999999999999", "1e3", "0x1", "١"}) {
            CAPTURE(bad);
            CHECK_FALSE(str::parse_int(bad, v));
        }
        CHECK(str::is_digits("0123"));
        CHECK_FALSE(str::is_digits(""));
    }
    SUBCASE("replace_all") {
        CHECK(str::replace_all("a\nb\n", "\n", "\r\n") == "a\r\nb\r\n");
        CHECK(str::replace_all("aaa", "a", "aa") == "aaaaaa");
        CHECK(str::replace_all("abc", "", "x") == "abc");
    }
    SUBCASE("visible: control characters and bad UTF-8 escaped, the rest kept") {
        CHECK(str::visible("a\nb\rc\td") == "a\\nb\\rc\\td");
        CHECK(str::visible("\x1b[31mred\x7f") == "\\x1b[31mred\\x7f");
        CHECK(str::visible(std::string("nul\0", 4)) == "nul\\x00");
        CHECK(str::visible("工具 a'b$c C:\\cuda") == "工具 a'b$c C:\\cuda");
        CHECK(str::visible("\xc2\x9b" "2J") == "\\u009b2J");  // C1 CSI
        CHECK(str::visible("\xc2\xa0") == "\xc2\xa0");            // NBSP is printable
        CHECK(str::visible("\xff\xfe") == "\\xff\\xfe");
        CHECK(str::visible("\xc0\xaf") == "\\xc0\\xaf");       // overlong '/'
        CHECK(str::visible("\xed\xa0\x80") == "\\xed\\xa0\\x80");  // surrogate
        CHECK(str::visible("\xe4\xb8") == "\\xe4\\xb8");       // cut short
    }
    SUBCASE("has_control") {
        CHECK(str::has_control("a\x1b"));
        CHECK_FALSE(str::has_control("a\x1b", true));
        CHECK(str::has_control("a\rb", true));
        CHECK(str::has_control("a\x7f"));
        CHECK_FALSE(str::has_control("工具 a'b"));
    }
}
