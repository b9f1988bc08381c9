// The pieces of the shared store: the O_EXCL lock (store/excl_lock), node keys
// and per-node results (store/node_checks), the shared layering (store/system_store).
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "store/excl_lock.hpp"
#include "store/node_checks.hpp"
#include "store/system_store.hpp"
#include "platform/node.hpp"
#include "test_support.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

using namespace cudaenv;
using testsupport::TempDir;

namespace {
using testsupport::write;
}  // namespace

TEST_CASE("shared records") {
    TempDir t("shared");
    auto shared = std::make_unique<Store>(t / "system");
    std::filesystem::create_directories(t / "system" / "toolkits" / "12.6.3");
    Store user(t / "user");
    user.layer_shared(std::move(shared));
    auto tks = user.toolkits();
    REQUIRE(tks.size() == 1);
    CHECK(tks[0].shared);
    CHECK(tks[0].managed);
    CHECK_THROWS_AS(refuse_shared_change(&tks[0], nullptr, "uninstall"), Error);
    SUBCASE("a corrupt shared config leaves the shared store out") {
        write(t / "system" / "config.toml", "[[toolkit]\n");
        Store u2(t / "user");
        u2.layer_shared(std::make_unique<Store>(t / "system"));
        CHECK(u2.toolkits().empty());
    }
}
