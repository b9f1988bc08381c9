// The host compiler rule (core/host_compiler): data rows and the pure decision.
#include <doctest/doctest.h>

#include <map>

#include "core/host_compiler.hpp"

using namespace cudaenv;

namespace {
Version V(const char* s) { return *Version::parse(s); }
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
