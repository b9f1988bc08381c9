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

TEST_CASE("fsx") {
    TempDir tmp("fsx");
    SUBCASE("UTF-8 paths round trip") {
        // Windows forbids " in file names; everything else here is allowed on both.
        std::string name = platform::is_windows ? "中文 ü ' & %x% $x" : "中文 ü ' \" $x";
        auto p = fsx::from_utf8(fsx::to_utf8(tmp.path()) + "/" + name);
        CHECK(fsx::to_utf8(p.filename()) == name);
        fsx::write_file_atomic(p, "data");
        CHECK(fsx::is_file(p));
        CHECK(fsx::read_file(p) == "data");
    }
    SUBCASE("read_file: missing, too large, binary") {
        CHECK_FALSE(fsx::read_file(tmp / "missing").has_value());
        testsupport::write(tmp / "big", std::string(10000, 'x'));
        CHECK_FALSE(fsx::read_file(tmp / "big", 9999).has_value());
        CHECK(fsx::read_file(tmp / "big", 10000)->size() == 10000);
        std::string bin("\0\x01\xff\r\n", 5);
        testsupport::write(tmp / "bin", bin);
        CHECK(fsx::read_file(tmp / "bin") == bin);
        CHECK_FALSE(fsx::read_file(tmp.path()).has_value());  // a folder
    }
    SUBCASE("write_file_atomic creates folders and replaces the file whole") {
        auto p = tmp / "a" / "b" / "f.txt";
        fsx::write_file_atomic(p, "one");
        fsx::write_file_atomic(p, "two");
        CHECK(testsupport::read(p) == "two");
        size_t n = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp / "a" / "b")) ++n;
        CHECK(n == 1);
    }
    SUBCASE("write_file_atomic into something that is not a folder throws Error") {
        testsupport::write(tmp / "file");
        CHECK_THROWS_AS(fsx::write_file_atomic(tmp / "file" / "x", "y"), Error);
    }
    SUBCASE("is_dir, is_file, exists do not throw") {
        CHECK(fsx::is_dir(tmp.path()));
        CHECK_FALSE(fsx::is_file(tmp.path()));
        CHECK_FALSE(fsx::exists(tmp / "nope"));
        CHECK_FALSE(fsx::is_dir(tmp / "nope" / "deeper"));
    }
    SUBCASE("absolute_normal") {
        CHECK(fsx::absolute_normal(tmp / "a" / ".." / "b" / ".") == (tmp / "b").lexically_normal());
        CHECK(fsx::absolute_normal(fs::path(tmp.path().string() + "/x/")) == (tmp / "x").lexically_normal());
        CHECK(fsx::absolute_normal("rel").is_absolute());
    }
    SUBCASE("is_absolute_normal: only text that absolute_normal leaves as it is") {
        if (platform::is_windows) {
            CHECK_FALSE(fsx::is_absolute_normal("C:\\x"));
            return;
        }
        for (const char* p : {"/", "/usr", "/a/b c/d", "/a/.b/..c/d.", "/a\n/b"}) {
            CAPTURE(p);
            CHECK(fsx::is_absolute_normal(p));
            CHECK(fsx::absolute_normal(p) == fs::path(p).lexically_normal());
        }
        for (const char* p : {"", "rel", "./a", "//a", "/a//b", "/a/", "/a/.", "/a/./b", "/a/..", "/a/../b", "/.."}) {
            CAPTURE(p);
            CHECK_FALSE(fsx::is_absolute_normal(p));
        }
        CHECK(fsx::absolute_normal("/a//b/./c/../d/") == fs::path("/a/b/d"));
    }
}
