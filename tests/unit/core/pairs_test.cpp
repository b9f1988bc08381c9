#include <doctest/doctest.h>

#include <algorithm>

#include "core/pairs.hpp"
#include "store/store.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using testsupport::TempDir;

namespace {

using testsupport::V;
using testsupport::S;

using testsupport::contains;

// A store with managed toolkits and cuDNNs (folders named by version, as the
// store keeps them; their content does not matter for selection).
struct Fixture {
    TempDir tmp{"pairs"};
    Store store{tmp.path() / "store"};

    Fixture() {
        for (const char* t : {"12.6.3", "12.4.1", "11.8.0"}) fs::create_directories(store.toolkits_dir() / t);
        for (const char* c : {"9.1.0_cuda12", "8.9.7_cuda11", "9.6.0_cuda12", "8.9.7_cuda12", "9.13.0_cuda13"})
            fs::create_directories(store.cudnn_dir() / c);
    }
    std::string error_of(const char* spec) {
        try {
            select_pair(S(spec), store);
        } catch (const Error& e) {
            return e.what();
        }
        return "";
    }
};

std::string cudnn_name(const std::optional<CudnnRecord>& c) {
    return c ? c->version.str() + "_cuda" + std::to_string(c->cuda_major) : "none";
}

}  // namespace

TEST_CASE("Store inventory") {
    Fixture f;
    SUBCASE("newest first, managed") {
        auto t = f.store.toolkits();
        REQUIRE(t.size() == 3);
        CHECK(t[0].version == V("12.6.3"));
        CHECK(t[2].version == V("11.8.0"));
        CHECK(t[0].managed);
        auto c = f.store.cudnns();
        REQUIRE(c.size() == 5);
        CHECK(c[0].version == V("9.13.0"));
        CHECK(c[0].cuda_major == 13);
    }
    SUBCASE("odd folder names are passed over, not fatal") {
        fs::create_directories(f.store.toolkits_dir() / "not-a-version");
        fs::create_directories(f.store.cudnn_dir() / "9.1.0_cuda99999999999");
        fs::create_directories(f.store.cudnn_dir() / "9.1.0.1.2.3_cuda12");
        // Read by a bounded scan, not std::regex (issue 40 R1): each of these is passed over.
        for (const char* odd : {"_cuda12", "9.1.0_cuda", "9.1.0_CUDA12", "9.1.0_cuda12_cuda12", "9.1.0_cuda+12",
                                "9.1.0_cuda-1", "9..1_cuda12", ".9.1_cuda12"})
            fs::create_directories(f.store.cudnn_dir() / odd);
        fs::create_directories(f.store.cudnn_dir() / (std::string(240, '9') + "_cuda12"));
        fs::create_directories(f.store.cudnn_dir() / ("9.1.0_cuda" + std::string(240, '1')));
        testsupport::write(f.store.toolkits_dir() / "13.0.0");  // a file, not a folder
        CHECK(f.store.toolkits().size() == 3);
        CHECK_NOTHROW(f.store.cudnns());
        CHECK(f.store.cudnns().size() == 5);
    }
}

TEST_CASE("select_pair") {
    Fixture f;
    SUBCASE("the newest matching toolkit with the newest cuDNN of its CUDA major") {
        auto p = f.store.toolkits();
        auto pair = select_pair(S("12"), f.store);
        CHECK(pair.toolkit.version == V("12.6.3"));
        CHECK(cudnn_name(pair.cudnn) == "9.6.0_cuda12");
        CHECK(pair.spec() == "12.6.3+9.6.0");
        pair = select_pair(S("12.4"), f.store);
        CHECK(pair.toolkit.version == V("12.4.1"));
        CHECK(cudnn_name(pair.cudnn) == "9.6.0_cuda12");
        pair = select_pair(S("11"), f.store);
        CHECK(pair.toolkit.version == V("11.8.0"));
        CHECK(cudnn_name(pair.cudnn) == "8.9.7_cuda11");
    }
    SUBCASE("an explicit cuDNN prefix takes the build for the toolkit's major") {
        CHECK(cudnn_name(select_pair(S("12+8"), f.store).cudnn) == "8.9.7_cuda12");
        CHECK(cudnn_name(select_pair(S("11.8+8.9.7"), f.store).cudnn) == "8.9.7_cuda11");
        CHECK(cudnn_name(select_pair(S("12.6+9.1"), f.store).cudnn) == "9.1.0_cuda12");
        CHECK(cudnn_name(select_pair(S("12.6.3+9"), f.store).cudnn) == "9.6.0_cuda12");
    }
    SUBCASE("+none") {
        auto pair = select_pair(S("12.6+none"), f.store);
        CHECK_FALSE(pair.cudnn.has_value());
        CHECK(pair.spec() == "12.6.3+none");
    }
    SUBCASE("the pinned cuDNN") {
        f.store.config().pins["12.6.3"] = "9.1.0";
        CHECK(cudnn_name(select_pair(S("12"), f.store).cudnn) == "9.1.0_cuda12");
        CHECK(cudnn_name(select_pair(S("12.4"), f.store).cudnn) == "9.6.0_cuda12");  // pin is per toolkit
        // An explicit cuDNN beats the pin.
        CHECK(cudnn_name(select_pair(S("12+9.6"), f.store).cudnn) == "9.6.0_cuda12");
    }
    SUBCASE("a pinned version with builds for two majors takes the one that fits") {
        f.store.config().pins["12.4.1"] = "8.9.7";
        f.store.config().pins["11.8.0"] = "8.9.7";
        CHECK(cudnn_name(select_pair(S("12.4"), f.store).cudnn) == "8.9.7_cuda12");
        CHECK(cudnn_name(select_pair(S("11.8"), f.store).cudnn) == "8.9.7_cuda11");
    }
    SUBCASE("an explicit cuDNN built for another CUDA major is a clear error") {
        auto msg = f.error_of("11.8+9.1");
        CHECK(contains(msg, "9.1.0"));
        CHECK(contains(msg, "CUDA 12"));
        CHECK(contains(msg, "11.8"));
        msg = f.error_of("12+9.13");
        CHECK(contains(msg, "CUDA 13"));
    }
    SUBCASE("nothing matching lists what is installed") {
        auto msg = f.error_of("10.2");
        CHECK(contains(msg, "10.2"));
        CHECK(contains(msg, "12.6.3"));
        CHECK(contains(msg, "11.8.0"));
        CHECK(contains(msg, "9.6.0"));
        msg = f.error_of("12.60");
        CHECK_FALSE(msg.empty());
        msg = f.error_of("12+7");
        CHECK(contains(msg, "no installed cuDNN matches"));
        CHECK(contains(msg, "12.6.3"));
    }
    SUBCASE("an empty store") {
        TempDir tmp("empty");
        Store empty(tmp / "store");
        try {
            select_pair(S("12"), empty);
            FAIL("no error");
        } catch (const Error& e) {
            CHECK(contains(e.what(), "nothing"));
            CHECK_FALSE(e.hint().empty());
        }
        CHECK(all_pairs(empty).empty());
        CHECK(cudnns_without_toolkit(empty).empty());
        CHECK(installed_summary(empty) == "nothing");
    }
    SUBCASE("an adopted cuDNN of unknown CUDA major can still be named") {
        f.store.config().cudnns.push_back({"/opt/cudnn-x", "", V("9.2.0"), 0});
        CHECK(cudnn_name(select_pair(S("12+9.2"), f.store).cudnn) == "9.2.0_cuda0");
        // ... but is never picked by default.
        CHECK(cudnn_name(select_pair(S("12"), f.store).cudnn) == "9.6.0_cuda12");
    }
    SUBCASE("adopted toolkits count like managed ones") {
        f.store.config().toolkits.push_back({"/usr/local/cuda-12.8", V("12.8.1")});
        auto pair = select_pair(S("12"), f.store);
        CHECK(pair.toolkit.version == V("12.8.1"));
        CHECK_FALSE(pair.toolkit.managed);
        CHECK(pair.toolkit.path == "/usr/local/cuda-12.8");
    }
}

TEST_CASE("all_pairs") {
    Fixture f;
    f.store.config().toolkits.push_back({"/opt/cuda-10.2", V("10.2")});
    auto pairs = all_pairs(f.store);
    std::vector<std::string> specs;
    for (const auto& p : pairs) specs.push_back(p.spec() + "/" + cudnn_name(p.cudnn));
    CHECK(specs == std::vector<std::string>{
                       "12.6.3+9.6.0/9.6.0_cuda12", "12.6.3+9.1.0/9.1.0_cuda12", "12.6.3+8.9.7/8.9.7_cuda12",
                       "12.4.1+9.6.0/9.6.0_cuda12", "12.4.1+9.1.0/9.1.0_cuda12", "12.4.1+8.9.7/8.9.7_cuda12",
                       "11.8.0+8.9.7/8.9.7_cuda11", "10.2+none/none"});
    SUBCASE("the pinned cuDNN comes first") {
        f.store.config().pins["12.6.3"] = "9.1.0";
        auto p = all_pairs(f.store);
        CHECK(cudnn_name(p[0].cudnn) == "9.1.0_cuda12");
        CHECK(cudnn_name(p[1].cudnn) == "9.6.0_cuda12");
        CHECK(p.size() == pairs.size());
    }
}

TEST_CASE("cudnns_without_toolkit") {
    Fixture f;
    auto lone = cudnns_without_toolkit(f.store);
    REQUIRE(lone.size() == 1);
    CHECK(lone[0].version == V("9.13.0"));
    CHECK(lone[0].cuda_major == 13);
    f.store.config().toolkits.push_back({"/opt/cuda-13", V("13.0.2")});
    CHECK(cudnns_without_toolkit(f.store).empty());
}

TEST_CASE("cudnn_fits") {
    ToolkitRecord t{"/t", V("12.6.3"), true};
    CHECK(cudnn_fits({"/c", "", V("9.1.0"), 12, true}, t));
    CHECK_FALSE(cudnn_fits({"/c", "", V("9.1.0"), 11, true}, t));
    CHECK_FALSE(cudnn_fits({"/c", "", V("9.1.0"), 0, true}, t));
}

TEST_CASE("installed_summary") {
    Fixture f;
    auto s = installed_summary(f.store);
    CHECK(contains(s, "CUDA 12.6.3"));
    CHECK(contains(s, "cuDNN 8.9.7 (CUDA 11)"));
}

TEST_CASE("detect_pair") {
    Fixture f;
    auto pair = select_pair(S("12.6"), f.store);
    // The folders hold nothing: a clear error, not a crash.
    CHECK_THROWS_AS(detect_pair(pair), Error);
}

TEST_CASE("unique specs: two installs of one version") {
    Fixture f;
    // CUDA 12.6.3 also in /usr/local/cuda-12.6 and in a venv's wheels; cuDNN 9.6.0 for CUDA 12 in the system.
    f.store.config().toolkits.push_back({"/usr/local/cuda-12.6", V("12.6.3")});
    f.store.config().toolkits.push_back({"/venv/lib/python3.12/site-packages/nvidia/cuda_runtime", V("12.6.3")});
    f.store.config().cudnns.push_back({"/usr/lib/x86_64-linux-gnu", "", V("9.6.0"), 12});
    auto pairs = all_pairs(f.store);
    auto specs = unique_specs(pairs, f.store);
    REQUIRE(specs.size() == pairs.size());
    SUBCASE("every spec selects exactly its pair, and no two are the same") {
        for (size_t i = 0; i < pairs.size(); ++i) {
            CAPTURE(specs[i]);
            CHECK(select_pair(S(specs[i].c_str()), f.store).same_as(pairs[i]));
            for (size_t j = 0; j < i; ++j) CHECK(specs[i] != specs[j]);
        }
    }
    SUBCASE("the shortest distinguishing part: an origin only where versions collide") {
        CHECK(std::count(specs.begin(), specs.end(), "11.8.0+8.9.7") == 1);
        CHECK(std::count(specs.begin(), specs.end(), "12.4.1+9.6.0") == 1);
        CHECK(std::count(specs.begin(), specs.end(), "12.6.3@pip+9.6.0") == 1);
        if constexpr (!platform::is_windows) {  // "system" is /usr: a Linux origin
            CHECK(std::count(specs.begin(), specs.end(), "12.4.1+9.6.0@system") == 1);
            CHECK(std::count(specs.begin(), specs.end(), "12.6.3@pip+9.6.0@system") == 1);
        }
        CHECK(std::count(specs.begin(), specs.end(), "12.6.3@cuda-12.6+9.1.0") == 1);
    }
    SUBCASE("stable across runs") { CHECK(unique_specs(all_pairs(f.store), f.store) == specs); }
    SUBCASE("a prefix still picks the newest, store first") {
        CHECK(select_pair(S("12.6"), f.store).toolkit.managed);
        CHECK(matching_toolkits(S("12.6"), f.store).size() == 3);
        CHECK(matching_toolkits(S("12.6@pip"), f.store).size() == 1);
        CHECK(select_pair(S("12@cuda-12.6"), f.store).toolkit.path == "/usr/local/cuda-12.6");
        CHECK(contains(f.error_of("12.6@nowhere"), "no installed CUDA matches '12.6@nowhere'"));
    }
}

namespace {

// The definition unique_specs() keeps, asked the slow way (select_pair() per
// candidate, as it was before it was made n log n): the first candidate that
// selects exactly the pair, else its full spec.
std::vector<std::string> unique_specs_by_selecting(const std::vector<Pair>& pairs, Store& store) {
    std::vector<std::string> out;
    for (const auto& p : pairs) {
        const auto tv = p.toolkit.version.str();
        const auto rest = p.cudnn ? p.cudnn->version.str() : std::string("none");
        auto tk = origin_names(p.toolkit.path, p.toolkit.managed);
        auto dn = p.cudnn ? origin_names(p.cudnn->path, p.cudnn->managed) : std::vector<std::string>{};
        std::vector<std::string> candidates = {p.spec()};
        for (const auto& o : tk) candidates.push_back(tv + "@" + o + "+" + rest);
        for (const auto& o : dn) candidates.push_back(tv + "+" + rest + "@" + o);
        for (const auto& a : tk)
            for (const auto& b : dn) candidates.push_back(tv + "@" + a + "+" + rest + "@" + b);
        std::string chosen = p.spec();
        for (const auto& c : candidates) {
            try {
                if (select_pair(S(c.c_str()), store).same_as(p)) {
                    chosen = c;
                    break;
                }
            } catch (const Error&) {
            }
        }
        out.push_back(chosen);
    }
    return out;
}

}  // namespace

TEST_CASE("unique specs: the same answer as selecting each candidate, for stores of many lookalikes") {
    // Toolkits of few versions in folders whose names repeat (cuda-12.6 under
    // many parents, nvidia/cu13 wheels), cuDNNs of one version for two majors
    // and of unknown major: every way two installs can share a spec.
    unsigned seed = 7;
    auto next = [&](unsigned n) { return (seed = seed * 1103515245u + 12345u) / 65536u % n; };
    for (int round = 0; round < 20; ++round) {
        CAPTURE(round);
        Fixture f;
        const char* tk_versions[] = {"12.6.3", "12.6.77", "12.4.1", "13.0.2"};
        const char* names[] = {"cuda-12.6", "cuda", "cu13", "local"};
        for (unsigned i = 0, n = 3 + next(12); i < n; ++i)
            f.store.config().toolkits.push_back({"/opt/" + std::to_string(next(4)) + "/" + names[next(4)],
                                                 V(tk_versions[next(4)])});
        const char* dnn_versions[] = {"9.1.0", "9.6.0", "8.9.7"};
        for (unsigned i = 0, n = next(8); i < n; ++i)
            f.store.config().cudnns.push_back({"/dnn/" + std::to_string(next(3)) + "/" + names[next(4)], "",
                                               V(dnn_versions[next(3)]), static_cast<int>(next(3)) * 6});  // 0, 6, 12
        auto pairs = all_pairs(f.store);
        CHECK(unique_specs(pairs, f.store) == unique_specs_by_selecting(pairs, f.store));
    }
}

TEST_CASE("origin_names") {
    CHECK(origin_names("/store/toolkits/12.6.3", true) == std::vector<std::string>{"store", "12.6.3", "toolkits-12.6.3"});
    CHECK(origin_names("/venv/lib/python3.12/site-packages/nvidia/cu13", false) ==
          std::vector<std::string>{"pip", "cu13", "nvidia-cu13"});
    if constexpr (!platform::is_windows)
        CHECK(origin_names("/usr/lib/x86_64-linux-gnu", false) ==
              std::vector<std::string>{"system", "x86_64-linux-gnu", "lib-x86_64-linux-gnu"});
    CHECK(origin_names("/opt/My CUDA", false) == std::vector<std::string>{"my-cuda", "opt-my-cuda"});
}

TEST_CASE("Pair::id: the folders, whatever the spec") {
    Pair a{{"/a", V("12.6"), false}, std::nullopt};
    Pair b{{"/b", V("12.6"), false}, std::nullopt};
    CHECK(a.spec() == b.spec());
    CHECK_FALSE(a.same_as(b));
    CHECK(a.same_as(a));
}
