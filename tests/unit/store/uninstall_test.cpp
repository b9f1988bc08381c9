#include <doctest/doctest.h>

#include "store/uninstall.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using testsupport::TempDir;
namespace fs = std::filesystem;

namespace {

using testsupport::V;
using testsupport::S;

// Managed 12.4.1 with cuDNN 9.1.0 (CUDA 12); adopted 11.8.0 with cuDNN 8.9.7
// (CUDA 11); pins for both.
struct Fixture {
    TempDir tmp{"uninstall"};
    Store store{tmp.path() / "store"};
    std::vector<fs::path> removed;
    Fixture() {
        fs::create_directories(store.toolkits_dir() / "12.4.1");
        fs::create_directories(store.cudnn_dir() / "9.1.0_cuda12");
        auto lock = store.lock();
        auto& c = store.config();
        c.toolkits.push_back({fsx::to_utf8(tmp / "ext" / "cuda-11.8"), V("11.8.0")});
        c.cudnns.push_back({fsx::to_utf8(tmp / "ext" / "cudnn-8.9"), "", V("8.9.7"), 11});
        c.pins["12.4.1"] = "9.1.0";
        c.pins["11.8.0"] = "8.9.7";
        store.save_config();
    }
    std::vector<std::string> apply(const Removal& r) {
        auto lock = store.lock();
        return apply_removal(r, store, [&](const fs::path& p) {
            removed.push_back(p);
            fs::remove_all(p);
        });
    }
};

}  // namespace

TEST_CASE("uninstall policy: what a spec takes away") {
    Fixture f;
    auto r = plan_removal(S("12.4"), f.store, false);
    REQUIRE(r.toolkit);
    CHECK(r.toolkit->version == V("12.4.1"));
    CHECK_FALSE(r.cudnn);  // the toolkit alone unless the spec names a cuDNN
    r = plan_removal(S("12.4+9.1"), f.store, false);
    REQUIRE(r.cudnn);
    CHECK(r.cudnn->version == V("9.1.0"));
    r = plan_removal(S("11.8"), f.store, true);
    CHECK_FALSE(r.toolkit);
    REQUIRE(r.cudnn);
    CHECK(r.cudnn->version == V("8.9.7"));
    CHECK_THROWS_AS(plan_removal(S("system"), f.store, false), UsageError);
    CHECK_THROWS_AS(plan_removal(S("10.2"), f.store, false), Error);
    CHECK_THROWS_AS(plan_removal(S("12.4+none"), f.store, true), Error);
}

TEST_CASE("uninstall policy: the active pair") {
    Fixture f;
    auto r = plan_removal(S("12.4"), f.store, false);
    CHECK(removes_active(r, S("12.4"), f.store) == "12.4.1+9.1.0");
    CHECK_FALSE(removes_active(r, S("11.8"), f.store).has_value());
    CHECK_FALSE(removes_active(r, S("system"), f.store).has_value());
    CHECK_FALSE(removes_active(r, S("10.2"), f.store).has_value());  // matches nothing: nothing to pull away
    auto cudnn_only = plan_removal(S("11.8"), f.store, true);
    CHECK(removes_active(cudnn_only, S("11.8"), f.store) == "11.8.0+8.9.7");
}

TEST_CASE("uninstall policy: managed folders are removed, adopted ones forgotten, pins follow") {
    Fixture f;
    SUBCASE("managed toolkit and its cuDNN") {
        auto said = f.apply(plan_removal(S("12.4+9.1"), f.store, false));
        REQUIRE(said.size() == 2);
        CHECK(said[0].starts_with("removed CUDA 12.4.1"));
        CHECK(said[1].starts_with("removed cuDNN 9.1.0 for CUDA 12"));
        CHECK(f.removed.size() == 2);
        auto c = Config::load(f.store.config_file());
        CHECK_FALSE(c.pins.count("12.4.1"));
        CHECK(c.pins.at("11.8.0") == "8.9.7");
    }
    SUBCASE("adopted toolkit: forgotten, the folder left alone") {
        auto said = f.apply(plan_removal(S("11.8"), f.store, false));
        REQUIRE(said.size() == 1);
        CHECK(said[0].find("(the folder is left as it is)") != std::string::npos);
        CHECK(f.removed.empty());
        auto c = Config::load(f.store.config_file());
        CHECK(c.toolkits.empty());
        CHECK(c.cudnns.size() == 1);
        CHECK_FALSE(c.pins.count("11.8.0"));
    }
    SUBCASE("adopted cuDNN alone: pins that name it go") {
        f.apply(plan_removal(S("11.8"), f.store, true));
        auto c = Config::load(f.store.config_file());
        CHECK(c.cudnns.empty());
        CHECK(c.toolkits.size() == 1);
        CHECK_FALSE(c.pins.count("11.8.0"));
        CHECK(c.pins.at("12.4.1") == "9.1.0");
    }
    SUBCASE("only under the store lock") {
        auto r = plan_removal(S("11.8"), f.store, false);
        CHECK_THROWS_AS(apply_removal(r, f.store, [](const fs::path&) {}), std::logic_error);
    }
}
