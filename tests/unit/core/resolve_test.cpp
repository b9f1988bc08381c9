#include <doctest/doctest.h>

#include <functional>

#include "store/config.hpp"
#include "core/resolve.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using testsupport::TempDir;
using testsupport::write;
namespace fs = std::filesystem;

namespace {

using testsupport::S;

using testsupport::contains;

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("parse_dot_cudaenv") {
    fs::path f = "/p/.cudaenv";
    SUBCASE("one spec") { CHECK(parse_dot_cudaenv("12.4\n", f) == S("12.4")); }
    SUBCASE("no newline at the end") { CHECK(parse_dot_cudaenv("11.8+8.9.7", f) == S("11.8+8.9.7")); }
    SUBCASE("comments and blank lines") {
        CHECK(parse_dot_cudaenv("# project CUDA\n\n   \n  12+9   # newest 12 with cuDNN 9\n13\n", f) == S("12+9"));
    }
    SUBCASE("CRLF and a UTF-8 BOM") {
        CHECK(parse_dot_cudaenv("\xEF\xBB\xBF" "12.4+none\r\n", f) == S("12.4+none"));
        CHECK(parse_dot_cudaenv("\xEF\xBB\xBF# c\r\n\r\nsystem\r\n", f) == S("system"));
        CHECK(parse_dot_cudaenv("\t12.6 \r\n", f) == S("12.6"));
    }
    SUBCASE("hostile content is an error naming file:line") {
        struct Case {
            const char* text;
            const char* where;
        };
        for (auto [text, where] : {Case{"$(touch /tmp/x)\n", ":1:"}, Case{"`touch /tmp/x`", ":1:"},
                                   Case{"# ok\n12.4; rm -rf ~\n", ":2:"}, Case{"\n\n12.4 && id\n", ":3:"},
                                   Case{"12.4\x1b]0;evil\x07\n", ":1:"}, Case{"12.4 | sh", ":1:"},
                                   Case{"\xEF\xBB\xBF\r\n$HOME\r\n", ":2:"}}) {
            CAPTURE(text);
            auto msg = error_of([&] { parse_dot_cudaenv(text, f); });
            CHECK(contains(msg, "/p/.cudaenv" + std::string(where)));
            // The message shows no control characters.
            for (char c : msg) CHECK(static_cast<unsigned char>(c) >= 0x20);
        }
    }
    SUBCASE("an empty file or only comments is an error") {
        CHECK(contains(error_of([&] { parse_dot_cudaenv("", f); }), "/p/.cudaenv:1:"));
        CHECK(contains(error_of([&] { parse_dot_cudaenv("# nothing\n\n", f); }), "no spec"));
    }
}

TEST_CASE("parse_tool_versions") {
    fs::path f = "/p/.tool-versions";
    CHECK(parse_tool_versions("nodejs 20.1.0\ncuda 12.4\npython 3.12\n", f) == S("12.4"));
    CHECK(parse_tool_versions("cuda 12.4.1\ncudnn 9.1.0\n", f) == S("12.4.1+9.1.0"));
    CHECK(parse_tool_versions("cudnn 8.9.7 # pinned\r\ncuda\t11.8   12.4\r\n", f) == S("11.8+8.9.7"));
    CHECK_FALSE(parse_tool_versions("python 3.12\nnodejs 20\n", f).has_value());
    CHECK_FALSE(parse_tool_versions("", f).has_value());
    CHECK_FALSE(parse_tool_versions("cudnn 9.1\n", f).has_value());  // no cuda line: not ours
    SUBCASE("a bad value names its own line") {
        CHECK(contains(error_of([&] { parse_tool_versions("cuda $(id)\n", f); }), "/p/.tool-versions:1:"));
        CHECK(contains(error_of([&] { parse_tool_versions("cuda 12.4\npython 3\ncudnn `id`\n", f); }),
                       "/p/.tool-versions:3:"));
    }
}

TEST_CASE("find_version_file") {
    TempDir tmp("resolve");
    auto deep = tmp / "a" / "b" / "c";
    fs::create_directories(deep);
    SUBCASE("nearest .cudaenv walking up") {
        write(tmp / "a" / ".cudaenv", "11.8\n");
        auto vf = find_version_file(deep);
        REQUIRE(vf.has_value());
        CHECK(vf->spec == S("11.8"));
        CHECK(vf->path == (tmp / "a" / ".cudaenv").lexically_normal());
        write(tmp / "a" / "b" / ".cudaenv", "12\n");
        CHECK(find_version_file(deep)->spec == S("12"));
        CHECK(find_version_file(tmp / "a")->spec == S("11.8"));
    }
    SUBCASE(".tool-versions with a cuda line, and .cudaenv first in the same folder") {
        write(tmp / "a" / ".tool-versions", "python 3.12\ncuda 12.4\ncudnn 9.1\n");
        CHECK(find_version_file(deep)->spec == S("12.4+9.1"));
        write(tmp / "a" / ".cudaenv", "11.8\n");
        CHECK(find_version_file(deep)->spec == S("11.8"));
    }
    SUBCASE("a .tool-versions without cuda is passed over") {
        write(tmp / "a" / ".cudaenv", "11.8\n");
        write(tmp / "a" / "b" / ".tool-versions", "python 3.12\n");
        auto vf = find_version_file(deep);
        REQUIRE(vf.has_value());
        CHECK(vf->path.filename() == ".cudaenv");
    }
    SUBCASE("the nearest file wins over a farther .cudaenv") {
        write(tmp / "a" / ".cudaenv", "11.8\n");
        write(tmp / "a" / "b" / ".tool-versions", "cuda 12.6\n");
        CHECK(find_version_file(deep)->spec == S("12.6"));
    }
    SUBCASE("a hostile .cudaenv is never run") {
        auto marker = tmp / "pwned";
        write(tmp / "a" / ".cudaenv", "$(touch " + marker.string() + ")\n`touch " + marker.string() + "`\n");
        auto msg = error_of([&] { find_version_file(deep); });
        CHECK(contains(msg, (tmp / "a" / ".cudaenv").lexically_normal().string() + ":1:"));
        CHECK_FALSE(fs::exists(marker));
    }
    SUBCASE("a .cudaenv folder is not a file") {
        fs::create_directories(tmp / "a" / "b" / ".cudaenv");
        write(tmp / "a" / ".cudaenv", "12\n");
        CHECK(find_version_file(deep)->spec == S("12"));
    }
    SUBCASE("a huge .cudaenv is refused") {
        write(tmp / "a" / ".cudaenv", "12\n" + std::string(70000, '#'));
        CHECK_THROWS_AS(find_version_file(deep), Error);
    }
}

TEST_CASE("resolve_active") {
    TempDir tmp("resolve");
    auto cwd = tmp / "proj" / "src";
    fs::create_directories(cwd);
    Config cfg;
    cfg.global = "11.8";
    write(tmp / "proj" / ".cudaenv", "12.4+none\n");

    SUBCASE("CUDAENV_VERSION first") {
        auto a = resolve_active(cwd, std::string("13"), cfg.global);
        CHECK(a.spec == S("13"));
        CHECK(a.origin == Origin::env);
        CHECK(std::string(a.origin_name()) == "env");
        CHECK(a.describe() == "CUDAENV_VERSION");
    }
    SUBCASE("an empty CUDAENV_VERSION counts as unset") {
        CHECK(resolve_active(cwd, std::string(""), cfg.global).origin == Origin::file);
    }
    SUBCASE("an invalid CUDAENV_VERSION is an error") {
        CHECK_THROWS_AS(resolve_active(cwd, std::string("12; id"), cfg.global), Error);
    }
    SUBCASE("then the nearest file") {
        auto a = resolve_active(cwd, std::nullopt, cfg.global);
        CHECK(a.spec == S("12.4+none"));
        CHECK(a.origin == Origin::file);
        CHECK(a.file == (tmp / "proj" / ".cudaenv").lexically_normal());
        CHECK(a.describe() == a.file.string());
    }
    SUBCASE("then .tool-versions") {
        fs::remove(tmp / "proj" / ".cudaenv");
        write(tmp / "proj" / ".tool-versions", "cuda 12.6\ncudnn 9\n");
        auto a = resolve_active(cwd, std::nullopt, cfg.global);
        CHECK(a.spec == S("12.6+9"));
        CHECK(a.origin == Origin::file);
    }
    SUBCASE("then the global default") {
        fs::remove(tmp / "proj" / ".cudaenv");
        auto a = resolve_active(cwd, std::nullopt, cfg.global);
        CHECK(a.spec == S("11.8"));
        CHECK(a.origin == Origin::global);
        CHECK(std::string(a.origin_name()) == "global");
        cfg.global = "bad spec";
        CHECK_THROWS_AS(resolve_active(cwd, std::nullopt, cfg.global), Error);
    }
    SUBCASE("then system") {
        fs::remove(tmp / "proj" / ".cudaenv");
        cfg.global.reset();
        auto a = resolve_active(cwd, std::nullopt, cfg.global);
        CHECK(a.spec.system);
        CHECK(a.origin == Origin::system);
        CHECK(std::string(a.origin_name()) == "system");
    }
}

TEST_CASE("version files in UTF-16 and with a BOM are text") {
    fs::path f = "/p/.cudaenv";
    auto u16le = [](std::string_view ascii) {
        std::string out = "\xFF\xFE";
        for (char c : ascii) out += std::string{c, '\0'};
        return out;
    };
    auto u16be = [](std::string_view ascii) {
        std::string out = "\xFE\xFF";
        for (char c : ascii) out += std::string{'\0', c};
        return out;
    };
    CHECK(parse_dot_cudaenv(u16le("12.4\r\n"), f) == S("12.4"));
    CHECK(parse_dot_cudaenv(u16be("11.8+8.9.7\n"), f) == S("11.8+8.9.7"));
    CHECK(parse_dot_cudaenv("\xEF\xBB\xBFsystem\n", f) == S("system"));
    CHECK(parse_tool_versions(u16le("python 3\r\ncuda 12.4\r\n"), "/p/.tool-versions") == S("12.4"));
    CHECK(version_file_text(std::string_view("\xFF\xFE\x3D\xD8\x00\xDE", 6)) == "\xF0\x9F\x98\x80");  // a surrogate pair
    CHECK(version_file_text(std::string_view("\xFF\xFE\x00\xD8", 4)) == "\xEF\xBF\xBD");              // an unpaired one
}

TEST_CASE("errors quote no more than a short clean prefix of a version file") {
    TempDir tmp("resolve-leak");
    SUBCASE("a .cudaenv linked to another file quotes nothing of it") {
        write(tmp / "secrets.env", "SECRET_TOKEN=abcdef\n");
        fs::create_directories(tmp / "repo");
        if (!testsupport::symlink(tmp / "secrets.env", tmp / "repo" / ".cudaenv")) return;
        auto msg = error_of([&] { find_version_file(tmp / "repo"); });
        CHECK(contains(msg, "not a spec"));
        CHECK_FALSE(contains(msg, "SECRET"));
        CHECK_FALSE(contains(msg, "abcdef"));
    }
    SUBCASE("a regular .cudaenv: a short prefix, printable ASCII only") {
        write(tmp / ".cudaenv", "0123456789abcdefghijklmnopqrstuvwxyz\x1b[31m\n");
        auto msg = error_of([&] { find_version_file(tmp.path()); });
        CHECK(contains(msg, "'0123456789abcdefghijklmn...'"));
        CHECK_FALSE(contains(msg, "xyz"));
    }
    SUBCASE("too large and unreadable say which") {
        write(tmp / ".cudaenv", std::string(max_version_file_bytes + 1, '1'));
        CHECK(contains(error_of([&] { find_version_file(tmp.path()); }), "larger than 8 KiB"));
    }
}

TEST_CASE("a version file with a NUL is refused at the NUL, before its size (issue 40 N7)") {
    using namespace std::string_literals;
    auto u16le = [](std::string_view ascii) {
        std::string out = "\xFF\xFE";
        for (char c : ascii) out += std::string{c, '\0'};
        return out;
    };
    SUBCASE("the rule over a file's head and size") {
        CHECK_FALSE(not_a_version_file("12.4\n", 5).has_value());
        auto nul = not_a_version_file("# c\n12\0.4\n"s, 10);
        REQUIRE(nul.has_value());
        CHECK(nul->line == 2);
        CHECK(contains(nul->why, "holds a NUL byte"));
        // A NUL in the head decides before the size: the hooks stop reading there.
        CHECK(contains(not_a_version_file(std::string(8192, '\0') + "x", 50u << 20)->why, "NUL byte"));
        CHECK(not_a_version_file(std::string(8193, '#'), 9000)->why == "larger than 8 KiB");
        // UTF-16: NUL bytes are its text; a NUL character is not.
        CHECK_FALSE(not_a_version_file(u16le("12.4\r\n"), 14).has_value());
        auto ch = not_a_version_file(u16le("# a\r\n") + std::string(2, '\0'), 16);
        REQUIRE(ch.has_value());
        CHECK(ch->line == 2);
        CHECK(contains(ch->why, "holds a NUL character"));
        auto big = u16le(std::string(200, '#'));
        CHECK(contains(not_a_version_file(big, big.size())->why, "is UTF-16 and larger than 256 bytes"));
        auto ok = u16le(std::string(127, '#'));
        CHECK_FALSE(not_a_version_file(ok, ok.size()).has_value());
    }
    SUBCASE("through find_version_file") {
        TempDir tmp("resolve");
        auto deep = tmp / "a" / "b";
        fs::create_directories(deep);
        write(tmp / "a" / ".cudaenv", std::string(8192, '\0'));
        CHECK(contains(error_of([&] { find_version_file(deep); }), ".cudaenv:1: holds a NUL byte"));
        // 50 MB with a spec, then NULs: refused at the NUL, not for its size.
        write(tmp / "a" / ".cudaenv", "11.8\n" + std::string(70000, '\0'));
        CHECK(contains(error_of([&] { find_version_file(deep); }), ".cudaenv:2: holds a NUL byte"));
        // A .tool-versions that is no text is passed over, as one over 8 KiB is.
        write(tmp / "a" / ".cudaenv", "11.8\n");
        write(deep / ".tool-versions", "cuda 12.4\n\0"s);
        CHECK(find_version_file(deep)->spec == S("11.8"));
    }
}
