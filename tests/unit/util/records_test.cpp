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

TEST_CASE("records: fields of any bytes, read back as written") {
    std::string text;
    records::put_record(text, {"a", "", std::string_view("x\n\t:9\0y", 7)});
    records::put_record(text, {});
    records::put_record(text, {"12:34"});
    records::Reader r(text);
    std::vector<std::string_view> f;
    std::string_view raw;
    REQUIRE(r.next(f, &raw));
    CHECK(f == std::vector<std::string_view>{"a", "", std::string_view("x\n\t:9\0y", 7)});
    CHECK(records::fields_of(raw) == f);
    REQUIRE(r.next(f));
    CHECK(f.empty());
    REQUIRE(r.next(f));
    CHECK(f == std::vector<std::string_view>{"12:34"});
    CHECK_FALSE(r.next(f));
    CHECK_FALSE(r.damaged());

    std::vector<std::string_view> g{"7", "x"};
    records::Fields in(g);
    CHECK(in.number() == 7);
    CHECK_THROWS_AS(in.number(), std::out_of_range);
    CHECK_THROWS_AS(in.next(), std::out_of_range);

    SUBCASE("a record changed in place, its lengths intact, is not intact") {
        std::string one;
        records::put_record(one, {"/usr/local/cuda-12.4/bin", "x"});
        for (size_t i = 0; i + 18 < one.size(); ++i) {  // every byte before the checksum
            auto bad = one;
            bad[i] = bad[i] == '7' ? '8' : '7';
            records::Reader d(bad);
            std::vector<std::string_view> got;
            if (d.next(got)) CHECK_FALSE(d.intact());  // else its structure broke: damaged()
            CHECK_FALSE(records::fields_of(bad).has_value());
        }
        records::Reader ok(one);
        std::vector<std::string_view> got;
        REQUIRE(ok.next(got));
        CHECK(ok.intact());
    }
    for (const char* bad : {"3:ab", "3:abc", "x:abc\n", "-1:\n", "99999999999999999999:a\n", "3abc\n", "2:ab3:\n",
                            "1:a\n", "1:a#0123\n", "1:a#0123456789abcdefX"}) {
        CAPTURE(bad);
        records::Reader d(bad);
        while (d.next(f)) {
        }
        CHECK(d.damaged());
    }
}
