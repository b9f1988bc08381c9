#include <doctest/doctest.h>

#include "store/config.hpp"
#include "store/config_cache.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using namespace testsupport;
namespace fs = std::filesystem;

namespace {

using testsupport::V;

// The message of the Error that loading `text` throws ("" when none).
std::string load_error(const TempDir& tmp, const std::string& text) {
    auto file = tmp / "config.toml";
    write(file, text);
    auto before = fs::last_write_time(file);
    std::string msg;
    try {
        Config::load(file);
    } catch (const Error& e) {
        msg = e.what();
        CHECK_FALSE(e.hint().empty());
    }
    // Loading never changes the file.
    CHECK(read(file) == text);
    CHECK(fs::last_write_time(file) == before);
    return msg;
}


}  // namespace

TEST_CASE("Config::load") {
    TempDir tmp("config");
    auto file = tmp / "config.toml";
    auto shown = file.string();

    SUBCASE("a missing file is an empty config") {
        auto c = Config::load(tmp / "nope" / "config.toml");
        CHECK_FALSE(c.global.has_value());
        CHECK_FALSE(c.mirror.has_value());
        CHECK(c.pins.empty());
        CHECK(c.toolkits.empty());
        CHECK(c.cudnns.empty());
        CHECK_FALSE(fs::exists(tmp / "nope"));
    }
    SUBCASE("an empty file is an empty config") {
        write(file, "");
        CHECK_FALSE(Config::load(file).global.has_value());
    }
    SUBCASE("a hand-written file") {
        write(file,
              "# mine\nglobal = \"12.6+9\"\n\n[pins]\n\"12.6.3\" = \"9.1.0\"\n\n[[toolkit]]\npath = \"/opt/cuda-12.6\"\n"
              "version = \"12.6.3\"\n\n[[cudnn]]\npath = 'C:\\Program Files\\NVIDIA\\CUDNN\\v9.1'\nversion = \"9.1.0\"\n"
              "variant = \"12.6\"\ncuda_major = 12\n");
        auto c = Config::load(file);
        CHECK(c.global == "12.6+9");
        CHECK(c.pins.at("12.6.3") == "9.1.0");
        REQUIRE(c.toolkits.size() == 1);
        CHECK(c.toolkits[0].path == "/opt/cuda-12.6");
        REQUIRE(c.cudnns.size() == 1);
        CHECK(c.cudnns[0].path == "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1");
        CHECK(c.cudnns[0].variant == "12.6");
        CHECK(c.cudnns[0].cuda_major == 12);
    }
    SUBCASE("a corrupt file names the file and the line, and is left alone") {
        auto msg = load_error(tmp, "global = \"12.6\"\n\n[pins\n");
        CHECK(contains(msg, shown));
        CHECK(contains(msg, ":3:"));
        msg = load_error(tmp, "global = \"12.6\"\nglobal = \"11.8\"\n");
        CHECK(contains(msg, shown + ":2:"));
        msg = load_error(tmp, "\x01\x02\xff\xfe garbage");
        CHECK(contains(msg, shown + ":1:"));
    }
    SUBCASE("wrong types are errors with the line") {
        auto msg = load_error(tmp, "# comment\nglobal = 3\n");
        CHECK(contains(msg, shown + ":2:"));
        CHECK(contains(msg, "global"));
        CHECK(contains(load_error(tmp, "mirror = true\n"), shown + ":1:"));
        CHECK(contains(load_error(tmp, "msvc = \"yes\"\n"), "'msvc' must be \"auto\" or \"off\""));
        CHECK(contains(load_error(tmp, "msvc = true\n"), shown + ":1:"));
        CHECK(contains(load_error(tmp, "\n\npins = \"x\"\n"), shown + ":3:"));
        CHECK(contains(load_error(tmp, "[pins]\n\"12.6\" = 9\n"), shown + ":2:"));
        CHECK(contains(load_error(tmp, "toolkit = 3\n"), shown + ":1:"));
        CHECK(contains(load_error(tmp, "[[toolkit]]\npath = 3\nversion = \"12.6\"\n"), shown + ":2:"));
        CHECK(contains(load_error(tmp, "[[toolkit]]\npath = \"/x\"\nversion = \"twelve\"\n"), shown + ":3:"));
        CHECK(contains(load_error(tmp, "[[toolkit]]\npath = \"/x\"\n"), "version"));
        CHECK(contains(load_error(tmp, "[[cudnn]]\npath = \"/x\"\nversion = \"9.1\"\ncuda_major = \"12\"\n"), shown + ":4:"));
        CHECK(contains(load_error(tmp, "[[cudnn]]\npath = \"/x\"\nversion = \"9.1\"\nvariant = 12.6\n"), shown + ":4:"));
    }
    SUBCASE("a setting appended below [pins] is read as the setting, with a warning (issue 40 D11)") {
        // `echo 'mirror = "..."' >> config.toml` once a [pins] table exists (docs/install.md's old advice).
        auto c = Config::parse("[pins]\n\"12.6.3\" = \"9.8.0\"\nmirror = \"/media/usb/cudaenv-mirror\"\n", file);
        CHECK(c.mirror == "/media/usb/cudaenv-mirror");
        CHECK(c.pins == std::map<std::string, std::string>{{"12.6.3", "9.8.0"}});
        REQUIRE(c.warnings.size() == 1);
        CHECK(contains(c.warnings[0], shown + ":3: `mirror` is below [pins]"));
        CHECK(contains(c.warnings[0], "move the line above [pins]"));
        // Written back, it is a setting again, above the tables.
        auto again = Config::parse(c.to_toml(), file);
        CHECK(again.mirror == c.mirror);
        CHECK(again.warnings.empty());
        CHECK(c.to_toml().find("mirror = ") < c.to_toml().find("[pins]"));
        // One above [pins] wins; the one below is named as ignored.
        c = Config::parse("global = \"12\"\n[pins]\nglobal = \"11.8\"\n", file);
        CHECK(c.global == "12");
        REQUIRE(c.warnings.size() == 1);
        CHECK(contains(c.warnings[0], "ignored"));
        // Not a string: still an error with its line; any other word is still no pin.
        CHECK(contains(load_error(tmp, "[pins]\nmirror = 3\n"), shown + ":2:"));
        CHECK(contains(load_error(tmp, "[pins]\nmirrors = \"/m\"\n"), "'mirrors' in [pins] is not a CUDA version"));
        CHECK(contains(load_error(tmp, "[pins]\n\"12.6.3\" = \"nine\"\n"), "is not a cuDNN version: 'nine'"));
        CHECK(contains(load_error(tmp, "[pins]\n\"12.6.3\" = \"9.8.0\"\n\"12.4 \" = \"9.1\"\n"), shown + ":3:"));
    }
    SUBCASE("a CUDA major out of range is an error, not a wrapped number") {
        CHECK(contains(load_error(tmp, "[[cudnn]]\npath = \"/x\"\nversion = \"9.1\"\ncuda_major = 4294967308\n"),
                       shown + ":4:"));
        CHECK(contains(load_error(tmp, "[[cudnn]]\npath = \"/x\"\nversion = \"9.1\"\ncuda_major = -1\n"), shown + ":4:"));
    }
    SUBCASE("a folder where the file should be") {
        fs::create_directories(file);
        CHECK_THROWS_AS(Config::load(file), Error);
    }
}

TEST_CASE("Config::to_toml") {
    TempDir tmp("config");
    auto file = tmp / "config.toml";
    Config c;
    c.global = "11.8+8.9.7";
    c.mirror = "/srv/mirror with space/\"q\"";
    c.pins = {{"12.6.3", "9.1.0"}, {"11.8.0", "8.9.7.29"}};
    c.toolkits = {{"/opt/cuda 12 'quoted'", V("12.6.3")}, {"C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8", V("11.8")},
                  {"/home/ü/中文/cuda", V("13.0.2")}};
    c.cudnns = {{"C:\\Program Files\\NVIDIA\\CUDNN\\v9.1", "12.6", V("9.1.0"), 12},
                {"/opt/cudnn-8.9.7", "", V("8.9.7.29"), 11},
                {"/opt/unknown", "", V("9.14.0"), 0}};

    SUBCASE("round trip through a file") {
        c.save(file);
        auto d = Config::load(file);
        CHECK(d.global == c.global);
        CHECK(d.mirror == c.mirror);
        CHECK(d.pins == c.pins);
        REQUIRE(d.toolkits.size() == c.toolkits.size());
        for (size_t i = 0; i < c.toolkits.size(); ++i) {
            CHECK(d.toolkits[i].path == c.toolkits[i].path);
            CHECK(d.toolkits[i].version == c.toolkits[i].version);
        }
        REQUIRE(d.cudnns.size() == c.cudnns.size());
        for (size_t i = 0; i < c.cudnns.size(); ++i) {
            CHECK(d.cudnns[i].path == c.cudnns[i].path);
            CHECK(d.cudnns[i].variant == c.cudnns[i].variant);
            CHECK(d.cudnns[i].version == c.cudnns[i].version);
            CHECK(d.cudnns[i].cuda_major == c.cudnns[i].cuda_major);
        }
        // Saving what was loaded gives the same bytes.
        CHECK(d.to_toml() == c.to_toml());
    }
    SUBCASE("an empty config") {
        Config e;
        e.save(file);
        auto d = Config::load(file);
        CHECK_FALSE(d.global.has_value());
        CHECK(d.toolkits.empty());
    }
    SUBCASE("save replaces the file whole and leaves no temporary file") {
        write(file, "old = 1\n");
        c.save(file);
        CHECK(read(file) == c.to_toml());
        size_t n = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path())) ++n;
        CHECK(n == 1);
    }
}

TEST_CASE("config.toml's copy in cache/config.txt (store/config_cache)") {
    TempDir tmp("config-cache");
    auto file = tmp / "config.toml";
    auto copy = tmp / "cache" / "config.txt";
    Config c;
    c.global = "12.6";
    c.mirror = "/srv/m";
    c.msvc = "auto";
    c.pins = {{"12.6.3", "9.1.0"}};
    c.toolkits = {{"/opt/cuda 12\n'q'\t:x", V("12.6.3")}, {"/home/ü/中文/cuda", V("13.0.2")}};
    c.cudnns = {{"C:\\NVIDIA\\CUDNN\\v9.1", "12.6", V("9.1.0"), 12}, {"/opt/cudnn", "", V("8.9.7.29"), 0}};
    c.save(file);

    // The first load parses config.toml and writes the copy; the next reads the copy.
    auto first = load_config_cached(file, copy);
    CHECK(first.to_toml() == c.to_toml());
    REQUIRE(fs::exists(copy));
    auto again = read_config_cache(copy, read(file));
    REQUIRE(again.has_value());
    CHECK(again->to_toml() == c.to_toml());
    CHECK(load_config_cached(file, copy).to_toml() == c.to_toml());

    SUBCASE("a copy of another config.toml is not used") {
        CHECK_FALSE(read_config_cache(copy, read(file) + " ").has_value());
        Config d = c;
        d.global = "11.8";
        d.save(file);  // at once, the same size: mtimes would not tell them apart
        CHECK(load_config_cached(file, copy).global == "11.8");
        CHECK(read_config_cache(copy, read(file))->global == "11.8");
    }
    SUBCASE("an edit in place is seen, whatever its mtime") {
        auto text = read(file);
        auto pos = text.find("'12.6'");
        REQUIRE(pos != std::string::npos);
        text.replace(pos, 6, "'11.8'");  // the same size
        auto before = fs::last_write_time(file);
        write(file, text);
        fs::last_write_time(file, before);
        CHECK(load_config_cached(file, copy).global == "11.8");
    }
    SUBCASE("a damaged or cut copy is not used") {
        auto whole = read(copy);
        for (size_t cut : {whole.size() - 1, whole.size() - 6, whole.size() / 2, size_t(10)}) {
            write(copy, whole.substr(0, cut));
            CHECK_FALSE(read_config_cache(copy, read(file)).has_value());
            CHECK(load_config_cached(file, copy).to_toml() == c.to_toml());
        }
        auto bad_version = whole;
        auto pos = bad_version.find("12.6.3", bad_version.find("toolkit"));
        bad_version.replace(pos, 6, "12.x.3");
        write(copy, bad_version);
        CHECK_FALSE(read_config_cache(copy, read(file)).has_value());
    }
    SUBCASE("a store that cannot hold the copy still loads") {
        write(tmp / "cache2");  // a file where the folder would be
        CHECK(load_config_cached(file, tmp / "cache2" / "config.txt").to_toml() == c.to_toml());
    }
    SUBCASE("no config.toml: an empty config, no copy written") {
        fs::remove(file);
        fs::remove(copy);
        CHECK(load_config_cached(file, copy).toolkits.empty());
        CHECK_FALSE(fs::exists(copy));
    }
    SUBCASE("a broken config.toml is an error even with a copy there") {
        write(file, "[[toolkit]\n");
        CHECK_THROWS_AS(load_config_cached(file, copy), Error);
    }
}
