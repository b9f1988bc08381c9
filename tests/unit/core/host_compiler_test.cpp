// The host compiler rule (core/host_compiler): data rows and the pure decision.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "core/host_compiler.hpp"
#include "store/host_compiler_cache.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"

using namespace cudaenv;
namespace fs = std::filesystem;

namespace {
using testsupport::V;
}  // namespace

TEST_CASE("host_compiler rows: every row parses and names its source") {
    const auto& rules = host_compiler_rules();
    REQUIRE(rules.size() >= 10);
    for (const auto& r : rules) {
        CAPTURE(r.cuda.str());
        CHECK(r.gcc_max >= 9);
        CHECK(r.clang_max >= 9);
        CHECK(r.source.find("docs.nvidia.com") != std::string::npos);
        CHECK(r.msvc.size() == 9);
    }
    CHECK(host_compiler_rule(V("11.8.89"))->gcc_max == 11);
    CHECK(host_compiler_rule(V("12.4.1"))->gcc_max == 13);
    CHECK(host_compiler_rule(V("12.5"))->gcc_max == 13);  // a release between rows takes the row before
    CHECK_FALSE(host_compiler_rule(V("10.2")).has_value());
}

TEST_CASE("parse_compiler_version") {
    CHECK(parse_compiler_version("g++ (Debian 12.2.0-14) 12.2.0\nCopyright (C) 2022\n") == CompilerId{"gcc", 12});
    CHECK(parse_compiler_version("c++ (GCC) 14.2.1 20240912 (Red Hat 14.2.1-3)\n") == CompilerId{"gcc", 14});
    CHECK(parse_compiler_version("c++ (Ubuntu 13.3.0-6ubuntu2~24.04) 13.3.0\n") == CompilerId{"gcc", 13});
    CHECK(parse_compiler_version("Debian clang version 17.0.6 (5)\nTarget: x86_64-pc-linux-gnu\n") ==
          CompilerId{"clang", 17});
    CHECK(parse_compiler_version("Ubuntu clang version 18.1.3 (1ubuntu1)\n") == CompilerId{"clang", 18});
    CHECK_FALSE(parse_compiler_version("icpx (R) 2024.0\n").has_value());
    CHECK_FALSE(parse_compiler_version("").has_value());
}

TEST_CASE("choose_host_compiler") {
    std::map<std::string, std::string> on_path = {{"g++-11", "/usr/bin/g++-11"}, {"g++-10", "/usr/bin/g++-10"},
                                                  {"clang++-14", "/usr/bin/clang++-14"}};
    auto find = [&](const std::string& n) -> std::optional<std::string> {
        auto it = on_path.find(n);
        return it == on_path.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    SUBCASE("c++ too new: the newest supported g++-N") {
        auto c = choose_host_compiler(V("11.8"), CompilerId{"gcc", 14}, find);
        REQUIRE(c.has_value());
        CHECK(c->path == "/usr/bin/g++-11");
        CHECK(c->reason == "c++ is GCC 14; CUDA 11.8's nvcc accepts GCC up to 11");
    }
    SUBCASE("c++ supported: nothing") { CHECK_FALSE(choose_host_compiler(V("12.4"), CompilerId{"gcc", 13}, find)); }
    SUBCASE("clang too new: a supported clang++-N first, else g++-N") {
        CHECK(choose_host_compiler(V("11.8"), CompilerId{"clang", 19}, find)->path == "/usr/bin/clang++-14");
        on_path.erase("clang++-14");
        CHECK(choose_host_compiler(V("11.8"), CompilerId{"clang", 19}, find)->path == "/usr/bin/g++-11");
    }
    SUBCASE("nothing supported on PATH, or an unknown c++: nothing") {
        on_path.clear();
        CHECK_FALSE(choose_host_compiler(V("11.8"), CompilerId{"gcc", 14}, find));
        CHECK_FALSE(choose_host_compiler(V("11.8"), std::nullopt, find));
    }
    CHECK(host_compiler_mismatch(V("12.4.1"), {"gcc", 14}) == "c++ is GCC 14; CUDA 12.4's nvcc accepts GCC up to 13");
    CHECK_FALSE(host_compiler_mismatch(V("13.0"), {"gcc", 14}).has_value());
}

TEST_CASE("host compiler: MSVC's banner and toolset range") {
    auto id = parse_compiler_version(
        "Microsoft (R) C/C++ Optimizing Compiler Version 19.38.33130 for x64\nCopyright (C) Microsoft Corporation.\n");
    REQUIRE(id);
    CHECK(*id == CompilerId{"msvc", 1938});
    CHECK(compiler_words(*id) == "MSVC 19.38 (_MSC_VER 1938)");
    // A localized banner keeps "Microsoft" and the version.
    CHECK(parse_compiler_version("Microsoft (R) C/C++-Optimierungscompiler Version 19.29.30154 f\xc3\xbcr x64") ==
          CompilerId{"msvc", 1929});
    CHECK_FALSE(host_compiler_mismatch(V("12.4"), {"msvc", 1938}, "cl.exe"));
    CHECK(host_compiler_mismatch(V("12.4"), {"msvc", 1950}, "cl.exe") ==
          "cl.exe is MSVC 19.50 (_MSC_VER 1950); CUDA 12.4's nvcc accepts _MSC_VER 1910-1949");
    CHECK(host_compiler_mismatch(V("13.0"), {"msvc", 1916}, "cl.exe").has_value());  // VS 2017 is below 13.0's range
    // A toolset is not chosen from PATH by `use`.
    CHECK_FALSE(choose_host_compiler(V("12.4"), CompilerId{"msvc", 1950}, [](const std::string&) {
        return std::optional<std::string>("/x");
    }));
}

TEST_CASE("host compiler: the name in the sentence") {
    CHECK(host_compiler_mismatch(V("12.6"), {"gcc", 14}, "g++") == "g++ is GCC 14; CUDA 12.6's nvcc accepts GCC up to 13");
    CHECK(host_compiler_mismatch(V("12.6"), {"clang", 19}, "NVCC_CCBIN=/opt/clang++") ==
          "NVCC_CCBIN=/opt/clang++ is Clang 19; CUDA 12.6's nvcc accepts Clang up to 18");
}

TEST_CASE("pick_host_compiler: the decision is kept; PATH, an alternatives switch and an upgrade show") {
    if (platform::is_windows) return;  // Linux only: cl.exe is a toolset, not a program on PATH
    testsupport::TempDir store("hc-store");
    testsupport::TempDir tmp("hc-tools");
    auto runs = tmp / "runs.log";
    // A fake g++ that says its version and counts its runs.
    // `pad` makes another size: a file clock may not tick between two writes.
    auto compiler = [&](const fs::path& file, int major, const std::string& pad = "") {
        testsupport::write(file, "#!/bin/sh\n#" + pad + "\necho run >> '" + runs.string() + "'\necho 'g++ (Debian " +
                                     std::to_string(major) + ".2.0-1) " + std::to_string(major) + ".2.0'\n");
        fs::permissions(file, fs::perms::owner_all);
    };
    auto run_count = [&] {
        auto text = testsupport::read(runs);
        return std::count(text.begin(), text.end(), '\n');
    };
    auto real = tmp / "real";
    auto bin = tmp / "bin";
    compiler(real / "gcc-14", 14);
    compiler(bin / "g++-13", 13);
    fs::create_directories(bin);
    fs::create_symlink(real / "gcc-14", bin / "g++");  // as update-alternatives makes it
    const auto path = bin.string();
    const auto cuda = V("12.6");

    auto first = pick_host_compiler(store.path(), cuda, path);
    REQUIRE(first.has_value());
    CHECK(first->path == (bin / "g++-13").string());
    CHECK(run_count() == 1);
    CHECK(pick_host_compiler(store.path(), cuda, path)->path == first->path);
    CHECK(run_count() == 1);  // kept: nothing started, PATH not searched

    SUBCASE("the compiler the link leads to is upgraded in place") {
        compiler(real / "gcc-14", 12, "upgraded");
        CHECK_FALSE(pick_host_compiler(store.path(), cuda, path).has_value());  // GCC 12 is fine for 12.6
        CHECK(run_count() == 2);
    }
    SUBCASE("the link is switched to another compiler (bin's mtime kept)") {
        auto mtime = fs::last_write_time(bin);
        compiler(real / "gcc-12", 12, "another");
        fs::remove(bin / "g++");
        fs::create_symlink(real / "gcc-12-other-size-name", bin / "g++");
        fs::rename(real / "gcc-12", real / "gcc-12-other-size-name");
        fs::last_write_time(bin, mtime);
        CHECK_FALSE(pick_host_compiler(store.path(), cuda, path).has_value());
        CHECK(run_count() == 2);
    }
    SUBCASE("another CUDA release decides anew") {
        pick_host_compiler(store.path(), V("12.8"), path);
        CHECK(run_count() == 2);
    }
}
