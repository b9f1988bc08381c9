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

namespace {

// A minimal ELF64 LE shared object: one PT_LOAD mapping the file at
// 0x400000 and a PT_DYNAMIC whose DT_NEEDED entries name `needed`.
std::string tiny_elf(const std::vector<std::string>& needed) {
    const uint64_t base = 0x400000, phoff = 64, strtab_off = phoff + 2 * 56;
    std::string strtab(1, '\0');
    std::vector<uint64_t> name_offs;
    for (const auto& n : needed) {
        name_offs.push_back(strtab.size());
        strtab += n + '\0';
    }
    const uint64_t dyn_off = (strtab_off + strtab.size() + 7) / 8 * 8;
    const uint64_t dyn_size = (needed.size() + 2) * 16;
    std::string f(dyn_off + dyn_size, '\0');
    auto put = [&](uint64_t off, auto v) { std::memcpy(f.data() + off, &v, sizeof v); };
    std::memcpy(f.data(), "\x7f" "ELF\x02\x01\x01", 7);
    put(16, uint16_t{3});   // ET_DYN
    put(18, uint16_t{62});  // x86-64
    put(20, uint32_t{1});
    put(32, phoff);
    put(52, uint16_t{64});
    put(54, uint16_t{56});
    put(56, uint16_t{2});
    put(58, uint16_t{64});
    // PT_LOAD
    put(phoff + 0, uint32_t{1});
    put(phoff + 8, uint64_t{0});
    put(phoff + 16, base);
    put(phoff + 32, uint64_t(f.size()));
    put(phoff + 40, uint64_t(f.size()));
    // PT_DYNAMIC
    put(phoff + 56 + 0, uint32_t{2});
    put(phoff + 56 + 8, dyn_off);
    put(phoff + 56 + 16, base + dyn_off);
    put(phoff + 56 + 32, dyn_size);
    put(phoff + 56 + 40, dyn_size);
    std::memcpy(f.data() + strtab_off, strtab.data(), strtab.size());
    uint64_t d = dyn_off;
    for (auto off : name_offs) {
        put(d, int64_t{1});  // DT_NEEDED
        put(d + 8, off);
        d += 16;
    }
    put(d, int64_t{5});  // DT_STRTAB
    put(d + 8, base + strtab_off);
    return f;  // DT_NULL follows (zeros)
}

}  // namespace

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

TEST_CASE("elf::needed_libraries") {
    TempDir tmp("elf");
    SUBCASE("a synthetic shared object") {
        auto p = tmp / "libcudnn.so.9.14.0";
        testsupport::write(p, tiny_elf({"libcublasLt.so.12", "libc.so.6"}));
        CHECK(elf::needed_libraries(p) == std::vector<std::string>{"libcublasLt.so.12", "libc.so.6"});
    }
    SUBCASE("not ELF, truncated, missing") {
        testsupport::write(tmp / "text", "#!/bin/sh\n");
        CHECK(elf::needed_libraries(tmp / "text").empty());
        auto elf = tiny_elf({"libcudart.so.11.0"});
        testsupport::write(tmp / "cut", elf.substr(0, 100));
        CHECK(elf::needed_libraries(tmp / "cut").empty());
        testsupport::write(tmp / "empty");
        CHECK(elf::needed_libraries(tmp / "empty").empty());
        CHECK(elf::needed_libraries(tmp / "missing").empty());
    }
#ifdef __linux__
    SUBCASE("this test program") {
        auto needed = elf::needed_libraries("/proc/self/exe");
        CHECK(std::find(needed.begin(), needed.end(), "libc.so.6") != needed.end());
    }
#endif
    SUBCASE("a Linux cuDNN tells its CUDA major by what it links") {
        auto root = tmp / "usr-local-cudnn";
        testsupport::write(root / "include" / "cudnn_version.h",
                           "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 14\n#define CUDNN_PATCHLEVEL 0\n");
        testsupport::write(root / "lib" / "libcudnn.so.9.14.0", tiny_elf({"libdl.so.2"}));
        testsupport::write(root / "lib" / "libcudnn_ops.so.9.14.0", tiny_elf({"libcublasLt.so.13", "libcublas.so.13"}));
        auto all = detect_cudnns(root);
        REQUIRE(all.size() == 1);
        CHECK(all[0].version == *Version::parse("9.14.0"));
        CHECK(all[0].cuda_major == 13);
        CHECK(all[0].cuda_major_source == "linked libraries");
    }
}

TEST_CASE("FileLock: shared holders together, exclusive alone") {
    testsupport::TempDir t("lock");
    const auto file = t / "gpu.lock";
    using Mode = cudaenv::platform::FileLock::Mode;
    {
        cudaenv::platform::FileLock a(file, false, Mode::shared);
        cudaenv::platform::FileLock b(file, false, Mode::shared);
        CHECK(a.locked());
        CHECK(b.locked());
        CHECK_FALSE(cudaenv::platform::FileLock(file, false, Mode::exclusive).locked());
    }
    cudaenv::platform::FileLock x(file, false, Mode::exclusive);
    CHECK(x.locked());
    CHECK_FALSE(cudaenv::platform::FileLock(file, false, Mode::shared).locked());
}
