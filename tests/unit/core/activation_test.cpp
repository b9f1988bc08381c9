#include <doctest/doctest.h>

#include <map>

#include "core/activation.hpp"
#include "shell_env.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;

namespace {

constexpr auto P = PathStyle::posix;
constexpr auto W = PathStyle::windows;

using Env = testsupport::ShellEnv;

PairEnv posix_pair(const std::string& root, const std::string& ver, const std::optional<std::string>& cudnn_root) {
    PairEnv p;
    p.spec = ver;
    p.cuda_root = root;
    p.cuda_version = *Version::parse(ver);
    p.path_dirs = {root + "/bin"};
    p.lib_dirs = {root + "/lib64"};
    if (cudnn_root) {
        p.cudnn_root = cudnn_root;
        p.lib_dirs.push_back(*cudnn_root + "/lib");
    }
    return p;
}

PairEnv win_pair(const std::string& root, const std::string& ver, const std::optional<std::string>& cudnn_root) {
    PairEnv p;
    p.spec = ver;
    p.cuda_root = root;
    p.cuda_version = *Version::parse(ver);
    p.path_dirs = {root + "\\bin"};
    if (cudnn_root) {
        p.cudnn_root = cudnn_root;
        p.path_dirs.push_back(*cudnn_root + "\\bin");
    }
    return p;
}

const std::vector<std::string> posix_roots = {"/store/toolkits", "/store/cudnn"};
const std::vector<std::string> win_roots = {"C:\\store\\toolkits", "C:\\store\\cudnn"};

OwnedEntry owned(PathStyle style) {
    return [style](const std::string& e) { return is_cuda_entry(e, style == P ? posix_roots : win_roots, style); };
}

// use(pair) then deactivate, checking the environment comes back byte for byte.
Env posix_original() {
    Env e;
    e.vars = {
        {"PATH", "/usr/local/cuda-11.8/bin:/usr/bin:/bin:/home/u/my tools"},
        {"CUDA_PATH", ""},                         // set but empty
        {"CUDA_HOME", "/usr/local/cuda-11.8"},     // set
        {"HOME", "/home/u"},                       // untouched
        {"CUDAENV_VERSION", "leftover value"},     // set by something else
    };
    return e;
}

}  // namespace

TEST_CASE("plan_use") {
    SUBCASE("posix: sets the pair's variables, lists rewritten") {
        Env env = posix_original();
        auto pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::string("/store/cudnn/9.1.0_cuda12"));
        env.apply(plan_use(pair, "12.6+9", env.reader(), owned(P), P));
        CHECK(env.get("PATH") == "/store/toolkits/12.6.3/bin:/usr/bin:/bin:/home/u/my tools");
        CHECK(env.get("LD_LIBRARY_PATH") == "/store/toolkits/12.6.3/lib64:/store/cudnn/9.1.0_cuda12/lib");
        CHECK(env.get("CUDA_PATH") == "/store/toolkits/12.6.3");
        CHECK(env.get("CUDA_HOME") == "/store/toolkits/12.6.3");
        CHECK(env.get("CUDNN_PATH") == "/store/cudnn/9.1.0_cuda12");
        CHECK(env.get("CUDNN_HOME") == "/store/cudnn/9.1.0_cuda12");
        CHECK(env.get("CUDAENV_VERSION") == "12.6+9");
        CHECK(env.get("HOME") == "/home/u");
        CHECK(env.get(state_var).has_value());
        // No CUDA_PATH_V* outside Windows semantics.
        for (const auto& [k, v] : env.vars) CHECK_FALSE(k.starts_with("CUDA_PATH_V"));
    }
    SUBCASE("posix: a pair without cuDNN unsets CUDNN_*") {
        Env env = posix_original();
        env.vars["CUDNN_PATH"] = "/old/cudnn";
        auto pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt);
        env.apply(plan_use(pair, "12.6+none", env.reader(), owned(P), P));
        CHECK_FALSE(env.get("CUDNN_PATH").has_value());
        CHECK_FALSE(env.get("CUDNN_HOME").has_value());
    }
    SUBCASE("an unset list stays unset when nothing goes in it") {
        Env env;
        env.vars = {{"PATH", "/usr/bin"}};
        PairEnv pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt);
        pair.lib_dirs.clear();
        env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
        CHECK_FALSE(env.get("LD_LIBRARY_PATH").has_value());
    }
    SUBCASE("using the same pair twice changes nothing but the state") {
        Env env = posix_original();
        auto pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt);
        env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
        auto again = plan_use(pair, "12.6", env.reader(), owned(P), P);
        for (const auto& c : again.changes()) CHECK(c.name == state_var);
    }
    SUBCASE("windows: CUDA_PATH_V<maj>_<min>, no LD_LIBRARY_PATH") {
        Env env;
        env.vars = {{"PATH", "C:\\Windows\\system32;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin"},
                    {"CUDA_PATH", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"},
                    {"CUDA_PATH_V11_8", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"}};
        auto pair = win_pair("C:\\store\\toolkits\\12.6.3", "12.6.3", std::string("C:\\store\\cudnn\\9.1.0_cuda12"));
        env.apply(plan_use(pair, "12.6", env.reader(), owned(W), W));
        CHECK(env.get("PATH") == "C:\\store\\toolkits\\12.6.3\\bin;C:\\store\\cudnn\\9.1.0_cuda12\\bin;C:\\Windows\\system32");
        CHECK(env.get("CUDA_PATH_V12_6") == "C:\\store\\toolkits\\12.6.3");
        CHECK(env.get("CUDA_PATH_V11_8") == "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8");
        CHECK(env.get("CUDA_PATH") == "C:\\store\\toolkits\\12.6.3");
        CHECK_FALSE(env.get("LD_LIBRARY_PATH").has_value());
    }
    SUBCASE("windows: a PATH over cmd's limit is refused") {
        Env env;
        // 8173 characters, plus 29 for the pair's bin folder and its ';'.
        env.vars = {{"PATH", "C:\\" + std::string(8170, 'x')}};
        auto pair = win_pair("C:\\store\\toolkits\\12.6.3", "12.6.3", std::nullopt);  // adds 30 characters
        CHECK_THROWS_AS(plan_use(pair, "12.6", env.reader(), owned(W), W), Error);
        try {
            plan_use(pair, "12.6", env.reader(), owned(W), W);
        } catch (const Error& e) {
            CHECK(std::string(e.what()).find("8191") != std::string::npos);
            CHECK_FALSE(e.hint().empty());
        }
        SUBCASE("exactly at the limit is fine") {
            std::string first = "C:\\store\\toolkits\\12.6.3\\bin;";
            std::string rest = "C:\\" + std::string(8191 - first.size() - 3, 'y');
            env.vars["PATH"] = rest;
            auto changes = plan_use(pair, "12.6", env.reader(), owned(W), W);
            env.apply(changes);
            CHECK(env.get("PATH")->size() == 8191);
        }
        SUBCASE("the limit counts characters, not UTF-8 bytes") {
            std::string first = "C:\\store\\toolkits\\12.6.3\\bin;";
            std::string rest = "C:\\";
            // 3 bytes each in UTF-8, one UTF-16 unit each; the emoji is 4 bytes, 2 units.
            for (size_t i = 0; i < 8191 - first.size() - 3 - 2; ++i) rest += "\xE4\xB8\xAD";
            rest += "\xF0\x9F\x98\x80";
            env.vars["PATH"] = rest;
            CHECK_NOTHROW(plan_use(pair, "12.6", env.reader(), owned(W), W));
            env.vars["PATH"] = rest + "x";
            CHECK_THROWS_AS(plan_use(pair, "12.6", env.reader(), owned(W), W), Error);
        }
        SUBCASE("posix semantics have no such limit") {
            env.vars["PATH"] = std::string(20000, 'z');
            CHECK_NOTHROW(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(),
                                   owned(P), P));
        }
    }
}

TEST_CASE("plan_deactivate") {
    SUBCASE("nothing active: no changes") {
        Env env = posix_original();
        CHECK(plan_deactivate(env.reader(), P).edits.empty());
        env.vars[state_var] = "garbage";
        CHECK(plan_deactivate(env.reader(), P).edits.empty());
    }
    SUBCASE("use then deactivate restores every variable byte for byte") {
        Env env = posix_original();
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::string("/store/cudnn/9.1.0_cuda12")),
                           "12.6", env.reader(), owned(P), P));
        CHECK(env.vars != before);
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("PATH and LD_LIBRARY_PATH unset before stay unset") {
        Env env;
        env.vars = {{"HOME", "/h"}};
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        CHECK(env.get("PATH") == "/store/toolkits/12.6.3/bin");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("lists set to empty before come back empty") {
        Env env;
        env.vars = {{"PATH", ""}, {"LD_LIBRARY_PATH", ""}, {"CUDNN_PATH", ""}};
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("use A, use B, deactivate restores the original") {
        Env env = posix_original();
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::string("/store/cudnn/9.1.0_cuda12")),
                           "12.6", env.reader(), owned(P), P));
        env.apply(plan_use(posix_pair("/store/toolkits/11.8.0", "11.8.0", std::nullopt), "11.8+none", env.reader(),
                           owned(P), P));
        CHECK(env.get("PATH") == "/store/toolkits/11.8.0/bin:/usr/bin:/bin:/home/u/my tools");
        CHECK(env.get("LD_LIBRARY_PATH") == "/store/toolkits/11.8.0/lib64");
        CHECK_FALSE(env.get("CUDNN_PATH").has_value());
        CHECK(env.get("CUDAENV_VERSION") == "11.8+none");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("windows: use A, use B, deactivate; CUDA_PATH_V* restored") {
        Env env;
        env.vars = {{"PATH", "C:\\Windows\\system32;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin;"
                             "C:\\Users\\me\\bin"},
                    {"CUDA_PATH", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"},
                    {"CUDA_PATH_V11_8", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8"}};
        const auto before = env.vars;
        env.apply(plan_use(win_pair("C:\\store\\toolkits\\12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(),
                           owned(W), W));
        env.apply(plan_use(win_pair("C:\\store\\toolkits\\13.0.2", "13.0.2", std::nullopt), "13", env.reader(), owned(W), W));
        CHECK(env.get("CUDA_PATH_V13_0") == "C:\\store\\toolkits\\13.0.2");
        CHECK_FALSE(env.get("CUDA_PATH_V12_6").has_value());  // set by the first use, gone with it
        env.apply(plan_deactivate(env.reader(), W));
        CHECK(env.vars == before);
    }
    SUBCASE("PATH changed by the user since use keeps the user's change") {
        Env env = posix_original();
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        env.vars["PATH"] = "/front:" + env.vars["PATH"] + ":/end";
        env.apply(plan_deactivate(env.reader(), P));
        // The user's additions stay; cudaenv's entry goes; what use removed comes back.
        CHECK(env.get("PATH") == "/front:/usr/local/cuda-11.8/bin:/usr/bin:/bin:/home/u/my tools:/end");
        auto rest = env.vars;
        rest.erase("PATH");
        auto rest_before = before;
        rest_before.erase("PATH");
        CHECK(rest == rest_before);
    }
    SUBCASE("a PATH change between two uses survives deactivate") {
        Env env = posix_original();
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        env.vars["PATH"] += ":/added/between";
        env.apply(plan_use(posix_pair("/store/toolkits/11.8.0", "11.8.0", std::nullopt), "11.8", env.reader(), owned(P), P));
        CHECK(env.get("PATH") == "/store/toolkits/11.8.0/bin:/usr/bin:/bin:/home/u/my tools:/added/between");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("PATH") == "/usr/local/cuda-11.8/bin:/usr/bin:/bin:/home/u/my tools:/added/between");
        CHECK_FALSE(env.get(state_var).has_value());
    }
    SUBCASE("an entry the user removed since use stays removed") {
        Env env = posix_original();
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        env.vars["PATH"] = "/store/toolkits/12.6.3/bin:/usr/bin:/home/u/my tools:/new";
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("PATH") == "/usr/local/cuda-11.8/bin:/usr/bin:/home/u/my tools:/new");
    }
    SUBCASE("LD_LIBRARY_PATH changed by the user, unset before") {
        Env env = posix_original();
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(), owned(P), P));
        env.vars["LD_LIBRARY_PATH"] = "/mine:" + env.vars["LD_LIBRARY_PATH"];
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("LD_LIBRARY_PATH") == "/mine");
    }
    SUBCASE("windows: the user's PATH change survives, case-insensitively") {
        Env env;
        env.vars = {{"PATH", "C:\\Windows\\system32;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin"}};
        env.apply(plan_use(win_pair("C:\\store\\toolkits\\12.6.3", "12.6.3", std::nullopt), "12.6", env.reader(),
                           owned(W), W));
        CHECK(env.get("PATH") == "C:\\store\\toolkits\\12.6.3\\bin;C:\\Windows\\system32");
        env.vars["PATH"] = "c:/STORE/toolkits/12.6.3/bin/;C:\\Windows\\system32;D:\\tools";
        env.apply(plan_deactivate(env.reader(), W));
        CHECK(env.get("PATH") ==
              "C:\\Windows\\system32;C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\bin;D:\\tools");
    }
    SUBCASE("system after use restores the environment, with CUDAENV_VERSION=system") {
        Env env = posix_original();
        const auto before = env.vars;
        env.apply(plan_use(posix_pair("/store/toolkits/12.6.3", "12.6.3", std::string("/store/cudnn/9.1.0_cuda12")),
                           "12.6", env.reader(), owned(P), P));
        env.apply(plan_use(std::nullopt, "system", env.reader(), owned(P), P));
        CHECK(env.get("CUDAENV_VERSION") == "system");
        for (const auto& name : {"PATH", "LD_LIBRARY_PATH", "CUDA_PATH", "CUDA_HOME", "CUDNN_PATH", "CUDNN_HOME", "HOME"}) {
            CAPTURE(name);
            CHECK(env.get(name) == (before.count(name) ? std::optional<std::string>(before.at(name)) : std::nullopt));
        }
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("system without an earlier use only sets CUDAENV_VERSION (and cudaenv's own state)") {
        Env env = posix_original();
        const auto before = env.vars;
        auto changes = plan_use(std::nullopt, "system", env.reader(), owned(P), P);
        env.apply(changes);
        for (const auto& c : changes.changes()) CHECK((c.name == "CUDAENV_VERSION" || c.name.starts_with("__CUDAENV_")));
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("hostile values survive the state byte for byte") {
        const std::vector<std::string> hostile = {
            "a b", "it's", "say \"hi\"", "$HOME", "$(touch /tmp/x)", "`id`", "100%", "%PATH%", "50%25", "a;b=c",
            "~x", "+-", "中文/日本語", "tab\there", "line\nbreak", "back\\slash", "", "%", "v1;PATH=-",
        };
        for (const auto& h : hostile) {
            CAPTURE(h);
            Env env;
            env.vars = {{"PATH", "/usr/bin:/opt/" + h}, {"CUDA_PATH", h}, {"CUDA_HOME", h + h}, {"CUDNN_HOME", h}};
            const auto before = env.vars;
            auto pair = posix_pair("/store/toolkits/12.6 " + h, "12.6.3", std::string("/store/cudnn/x" + h));
            env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
            CHECK(env.get("CUDA_PATH") == "/store/toolkits/12.6 " + h);
            env.apply(plan_deactivate(env.reader(), P));
            CHECK(env.vars == before);
        }
    }
}

TEST_CASE("pair_env") {
    DetectedPair dp;
    dp.toolkit.root = "/store/toolkits/12.6.3";
    dp.toolkit.version = *Version::parse("12.6.3");
    dp.toolkit.bin_dirs = {"/store/toolkits/12.6.3/bin"};
    dp.toolkit.lib_dirs = {"/store/toolkits/12.6.3/lib64"};
    SUBCASE("toolkit only") {
        auto e = pair_env(dp, "12.6");
        CHECK(e.spec == "12.6");
        CHECK(e.cuda_root == "/store/toolkits/12.6.3");
        CHECK_FALSE(e.cudnn_root.has_value());
        CHECK(e.path_dirs == std::vector<std::string>{"/store/toolkits/12.6.3/bin"});
        CHECK(e.lib_dirs == std::vector<std::string>{"/store/toolkits/12.6.3/lib64"});
    }
    SUBCASE("with cuDNN: its folders after the toolkit's") {
        Cudnn c;
        c.root = "/store/cudnn/9.1.0_cuda12";
        c.lib_dirs = {"/store/cudnn/9.1.0_cuda12/lib"};
        dp.cudnn = c;
        auto e = pair_env(dp, "12.6+9");
        CHECK(e.cudnn_root == "/store/cudnn/9.1.0_cuda12");
        CHECK(e.lib_dirs == std::vector<std::string>{"/store/toolkits/12.6.3/lib64", "/store/cudnn/9.1.0_cuda12/lib"});
    }
}

TEST_CASE("build tools: CUDACXX and CUDAToolkit_ROOT") {
    auto pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt);
    pair.nvcc = "/store/toolkits/12.6.3/bin/nvcc";
    SUBCASE("use sets both; deactivate restores them byte for byte") {
        Env env = posix_original();
        env.vars["CUDACXX"] = "/opt/other/bin/nvcc ";  // the user's own value, trailing blank included
        const auto before = env.vars;
        env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
        CHECK(env.get("CUDACXX") == "/store/toolkits/12.6.3/bin/nvcc");
        CHECK(env.get("CUDAToolkit_ROOT") == "/store/toolkits/12.6.3");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
        CHECK_FALSE(env.get("CUDAToolkit_ROOT").has_value());
    }
    SUBCASE("a runtime-only toolkit has no nvcc: CUDACXX is unset, then restored") {
        Env env = posix_original();
        env.vars["CUDACXX"] = "/usr/bin/nvcc";
        const auto before = env.vars;
        pair.nvcc.reset();
        env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
        CHECK_FALSE(env.get("CUDACXX").has_value());
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.vars == before);
    }
    SUBCASE("windows: CUDA_PATH_V kept beside them") {
        Env env;
        env.vars = {{"PATH", "C:\\Windows"}};
        auto wp = win_pair("C:\\store\\toolkits\\12.6.3", "12.6.3", std::nullopt);
        wp.nvcc = "C:\\store\\toolkits\\12.6.3\\bin\\nvcc.exe";
        env.apply(plan_use(wp, "12.6", env.reader(), owned(W), W));
        CHECK(env.get("CUDACXX") == "C:\\store\\toolkits\\12.6.3\\bin\\nvcc.exe");
        CHECK(env.get("CUDA_PATH_V12_6") == "C:\\store\\toolkits\\12.6.3");
    }
}

TEST_CASE("deactivate removes only what cudaenv added") {
    auto pair = posix_pair("/store/toolkits/12.6.3", "12.6.3", std::nullopt);
    Env env = posix_original();
    env.apply(plan_use(pair, "12.6", env.reader(), owned(P), P));
    SUBCASE("a toolkit bin the user appended themselves after use stays") {
        env.vars["PATH"] += ":/store/toolkits/12.6.3/bin";
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("PATH") == "/usr/local/cuda-11.8/bin:/usr/bin:/bin:/home/u/my tools:/store/toolkits/12.6.3/bin");
    }
    SUBCASE("a toolkit bin the user put first themselves stays once") {
        env.vars["PATH"] = "/store/toolkits/12.6.3/bin:" + *env.get("PATH");
        env.apply(plan_deactivate(env.reader(), P));
        auto path = *env.get("PATH");
        CHECK(path.find("/store/toolkits/12.6.3/bin") != std::string::npos);
        CHECK(path.find("/store/toolkits/12.6.3/bin") == path.rfind("/store/toolkits/12.6.3/bin"));
    }
    SUBCASE("a CUDA_PATH the user set after use is kept") {
        env.vars["CUDA_PATH"] = "/my/cuda";
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("CUDA_PATH") == "/my/cuda");
        CHECK(env.get("CUDA_HOME") == "/usr/local/cuda-11.8");  // not changed by the user: restored
    }
    SUBCASE("a variable the user unset after use stays unset") {
        env.vars.erase("CUDA_HOME");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK_FALSE(env.get("CUDA_HOME").has_value());
    }
    SUBCASE("the user's CUDA_PATH survives a second use, then deactivate") {
        env.vars["CUDA_PATH"] = "/my/cuda";
        env.apply(plan_use(posix_pair("/store/toolkits/11.8.0", "11.8.0", std::nullopt), "11.8", env.reader(),
                           owned(P), P));
        CHECK(env.get("CUDA_PATH") == "/store/toolkits/11.8.0");
        env.apply(plan_deactivate(env.reader(), P));
        CHECK(env.get("CUDA_PATH") == "/my/cuda");
    }
    SUBCASE("nothing left of cudaenv's state") {
        env.vars["CUDA_PATH"] = "/my/cuda";
        env.apply(plan_deactivate(env.reader(), P));
        for (const auto& [k, v] : env.vars) CHECK_FALSE(k.starts_with("__CUDAENV_"));
    }
}

TEST_CASE("apply_changes: names by each OS's rule") {
    EnvBlock block = {{"Path", "C:\\Windows"}, {"HOME", "/h"}, {"cuda_path", "x"}};
    SUBCASE("windows folds case: Path is PATH") {
        auto b = block;
        apply_changes(b, {{"PATH", "C:\\new"}, {"CUDA_PATH", std::nullopt}}, W);
        CHECK(b == EnvBlock{{"HOME", "/h"}, {"PATH", "C:\\new"}});
    }
    SUBCASE("posix: Path and PATH are two variables") {
        auto b = block;
        apply_changes(b, {{"PATH", "/bin"}, {"CUDA_PATH", std::nullopt}}, P);
        CHECK(b == EnvBlock{{"Path", "C:\\Windows"}, {"HOME", "/h"}, {"cuda_path", "x"}, {"PATH", "/bin"}});
    }
    CHECK(same_env_name("Path", "PATH", W));
    CHECK_FALSE(same_env_name("Path", "PATH", P));
}

TEST_CASE("Activation: applied_to and json") {
    Activation a;
    a.diff.edits = {{"CUDA_PATH", EnvOp::set, "/t"},
                    {"CUDNN_PATH", EnvOp::unset, std::nullopt},
                    {"PATH", EnvOp::prepend, "/t/bin:/bin", {"/t/bin"}, {"/old/bin"}},
                    {"CUDA_HOME", EnvOp::set, "/t", {}, {}, false}};
    CHECK(a.applied_to({{"CUDNN_PATH", "/c"}, {"HOME", "/h"}}, P) ==
          EnvBlock{{"HOME", "/h"}, {"CUDA_PATH", "/t"}, {"PATH", "/t/bin:/bin"}});
    CHECK(a.json() ==
          "{\n  \"prepend\": {\n    \"PATH\": [\n      \"/t/bin\"\n    ]\n  },\n  \"set\": {\n    \"CUDA_PATH\": \"/t\",\n"
          "    \"PATH\": \"/t/bin:/bin\"\n  },\n  \"unset\": [\n    \"CUDNN_PATH\"\n  ]\n}");
}
