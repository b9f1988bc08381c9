#include <doctest/doctest.h>

#include "test_support.hpp"

#include "core/frameworks.hpp"
#include "core/wsl.hpp"
#include "export/formats.hpp"
#include "export/kernelspec.hpp"
#include "util/error.hpp"

using namespace cudaenv;

namespace {
using testsupport::V;
Pair P(const char* cuda, const char* cudnn) {
    Pair p;
    p.toolkit.version = V(cuda);
    p.toolkit.path = std::string("/t/") + cuda;
    if (cudnn) {
        CudnnRecord c;
        c.version = V(cudnn);
        c.cuda_major = p.toolkit.version.major();
        c.path = std::string("/c/") + cudnn;
        p.cudnn = c;
    }
    return p;
}
}  // namespace

TEST_CASE("framework_builds") {
    auto rows = framework_builds();
    REQUIRE(rows.size() >= 15);
    SUBCASE("every row parses and cites a source") {
        for (const auto& r : rows) {
            INFO(r.name);
            CHECK_FALSE(r.source.empty());
            if (!r.os.empty()) {
                CHECK(r.cuda.has_value());
                CHECK_FALSE(r.loads.empty());
            } else {
                CHECK_FALSE(r.no_gpu_on.empty());
                CHECK_FALSE(r.no_gpu_hint.empty());
            }
        }
    }
    SUBCASE("each framework of the brief is there") {
        for (const char* n : {"tensorflow", "torch", "onnxruntime-gpu", "cupy-cuda12x", "jax-cuda12-plugin", "paddlepaddle-gpu"}) {
            bool found = false;
            for (const auto& r : rows) found = found || r.name == n;
            CHECK_MESSAGE(found, n);
        }
        for (const char* v : {"cu118", "cu121", "cu124", "cu126", "cu128", "cu130"}) {
            bool found = false;
            for (const auto& r : rows) found = found || (r.name == "torch" && r.variant == v);
            CHECK_MESSAGE(found, v);
        }
    }
    SUBCASE("a row without a source is refused") {
        CHECK_THROWS_AS(framework_builds(std::string("[[framework_build]]\nname = \"x\"\nos = [\"linux\"]\ncuda = \"12\"\nloads = \"wheels\"\n")),
                        Error);
        CHECK_THROWS_AS(framework_builds(std::string("[[framework_build]]\nname = \"x\"\ncuda = \"twelve\"\nsource = \"s\"\n")), Error);
    }
}

TEST_CASE("framework_build_for") {
    auto rows = framework_builds();
    auto need = [&](const char* text, const char* os) { return framework_build_for(rows, parse_framework_request(text), os); };
    SUBCASE("tensorflow") {
        CHECK(need("tensorflow==2.5.0", "linux").needs() == "CUDA 11.2 + cuDNN 8.1");
        CHECK(need("tensorflow==2.10", "windows").needs() == "CUDA 11.2 + cuDNN 8.1");
        CHECK(need("tensorflow==2.4.1", "windows").needs() == "CUDA 11.0 + cuDNN 8.0");
        CHECK(need("tensorflow==2.15.1", "linux").needs() == "CUDA 12.2 + cuDNN 8.9");
    }
    SUBCASE("no GPU build on native Windows from 2.11") {
        try {
            need("tensorflow==2.11", "windows");
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find("no GPU build for native Windows") != std::string::npos);
            CHECK(e.hint().find("WSL2") != std::string::npos);
        }
        CHECK(need("tensorflow==2.11", "linux").needs() == "CUDA 11.2 + cuDNN 8.1");
    }
    SUBCASE("torch by wheel tag") {
        CHECK(need("torch==2.5.1+cu121", "linux").needs() == "CUDA 12.1 + cuDNN 9.1.0.70");
        CHECK(need("torch==2.7.0+cu128", "windows").loads == "wheels");
        CHECK_THROWS_AS(need("torch==2.5.1", "linux"), UsageError);
        CHECK_THROWS_AS(need("torch==2.5.1+cu999", "linux"), Error);
    }
    SUBCASE("unknown names and versions") {
        CHECK_THROWS_AS(need("tensorflw==2.10", "linux"), Error);
        CHECK_THROWS_AS(need("tensorflow==1.15", "linux"), Error);
        CHECK_THROWS_AS(parse_framework_request("tensorflow"), UsageError);
        CHECK_THROWS_AS(parse_framework_request("tensorflow==two"), UsageError);
    }
}

TEST_CASE("choose_pair") {
    auto rows = framework_builds();
    auto tf210 = framework_build_for(rows, parse_framework_request("tensorflow==2.10"), "linux");
    SUBCASE("the exact pair wins over newer minors") {
        auto c = choose_pair(tf210, {P("12.4", "9.1.0"), P("11.8", "8.9.7"), P("11.2", "8.1.1")});
        REQUIRE(c);
        CHECK(c->pair.toolkit.version.str() == "11.2");
        CHECK(c->why.find("same versions") != std::string::npos);
    }
    SUBCASE("same majors, newer minors") {
        auto c = choose_pair(tf210, {P("12.4", "9.1.0"), P("11.8", "8.9.7")});
        REQUIRE(c);
        CHECK(c->pair.toolkit.version.str() == "11.8");
    }
    SUBCASE("nothing fits") {
        CHECK_FALSE(choose_pair(tf210, {P("12.4", "9.1.0"), P("11.8", nullptr), P("11.1", "8.1.0")}));
    }
}

TEST_CASE("detect_wsl") {
    CHECK(detect_wsl(std::string("Ubuntu"), std::nullopt).wsl);
    CHECK(detect_wsl(std::nullopt, std::string("5.15.153.1-microsoft-standard-WSL2\n")).wsl);
    CHECK(detect_wsl(std::nullopt, std::string("4.4.0-19041-Microsoft")).wsl);
    CHECK_FALSE(detect_wsl(std::nullopt, std::string("6.1.0-18-amd64")).wsl);
    WslInfo w;
    w.wsl = true;
    CHECK(on_windows_drive("/mnt/c/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8", w));
    CHECK(on_windows_drive("/mnt/d", w));
    CHECK_FALSE(on_windows_drive("/mnt/data/cuda", w));
    CHECK_FALSE(on_windows_drive("/usr/local/cuda", w));
}

TEST_CASE("export quoting") {
    using namespace cudaenv::exporting;
    CHECK(lua_quote("a\"b\\c\nd") == "\"a\\\"b\\\\c\\nd\"");
    CHECK(lua_quote("工具 a'b$c") == "\"工具 a'b$c\"");
    CHECK(tcl_quote("x $HOME [exec rm] {a} \"q\" \\") == "\"x \\$HOME \\[exec rm\\] \\{a\\} \\\"q\\\" \\\\\"");
}

TEST_CASE("dotenv_misread: values every consumer reads back as written (issue 29.5)") {
    using namespace cudaenv::exporting;
    constexpr auto P = PathStyle::posix;
    for (const char* ok : {"/opt/cuda 12/bin", "a\"b$c", "工具 a'b$c`d%e", "x#y", "$HOME/x", "t\tab", "a $ b"}) {
        CAPTURE(ok);
        CHECK_FALSE(dotenv_misread(ok, P));
    }
    for (const char* bad : {" lead", "trail\t", "\"q", "'q", "/b${HOME}x", "a #b", "a\u3000#b", "x\xff",
                            "end\u3000", "c:\\x"}) {
        CAPTURE(bad);
        CHECK(dotenv_misread(bad, P));
    }
    // Windows paths keep their backslashes: systemd is not among Windows' consumers.
    CHECK_FALSE(dotenv_misread("C:\\Program Files\\CUDA\\v12.4", PathStyle::windows));
    CHECK(dotenv_misread("/b${HOME}x", P)->find("python-dotenv") != std::string::npos);
}

TEST_CASE("check_kernel_name") {
    using namespace cudaenv::exporting;
    CHECK_NOTHROW(check_kernel_name("cuda-12.4_x"));
    CHECK_THROWS_AS(check_kernel_name("a/b"), UsageError);
    CHECK_THROWS_AS(check_kernel_name("a\\b"), UsageError);
    CHECK_THROWS_AS(check_kernel_name(".."), UsageError);
    CHECK_THROWS_AS(check_kernel_name("sp ace"), UsageError);
}

TEST_CASE("jupyter_data_dir") {
    using namespace cudaenv::exporting;
    auto none = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    auto env = [](const std::string& n) -> std::optional<std::string> {
        if (n == "APPDATA") return std::string("C:\\Users\\u\\AppData\\Roaming");
        if (n == "XDG_DATA_HOME") return std::string("/x");
        return std::nullopt;
    };
    CHECK(jupyter_data_dir(none, JupyterOs::linux, "/home/u") == std::filesystem::path("/home/u/.local/share/jupyter"));
    CHECK(jupyter_data_dir(env, JupyterOs::linux, "/home/u") == std::filesystem::path("/x/jupyter"));
    CHECK(jupyter_data_dir(none, JupyterOs::macos, "/Users/u") == std::filesystem::path("/Users/u/Library/Jupyter"));
    CHECK(jupyter_data_dir(env, JupyterOs::windows, "C:/Users/u") ==
          std::filesystem::path("C:\\Users\\u\\AppData\\Roaming") / "jupyter");
    auto jdd = [](const std::string& n) -> std::optional<std::string> {
        if (n == "JUPYTER_DATA_DIR") return std::string("/j");
        return std::nullopt;
    };
    CHECK(jupyter_data_dir(jdd, JupyterOs::windows, "/h") == std::filesystem::path("/j"));
    SUBCASE("no home: an error, never a folder below the current one") {
        for (auto os : {JupyterOs::linux, JupyterOs::macos}) CHECK_THROWS_AS(jupyter_data_dir(none, os, ""), Error);
        CHECK(jupyter_data_dir(jdd, JupyterOs::linux, "") == std::filesystem::path("/j"));
        auto relative_xdg = [](const std::string& n) -> std::optional<std::string> {
            if (n == "XDG_DATA_HOME") return std::string("x");
            return std::nullopt;
        };
        CHECK_THROWS_AS(jupyter_data_dir(relative_xdg, JupyterOs::linux, ""), Error);
    }
}
