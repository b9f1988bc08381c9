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
using testsupport::write;

TEST_CASE("ExclusiveLock") {
    TempDir t("lock");
    auto file = t / "store.lock";
    SUBCASE("holds host and pid, refuses a second holder, removes its file") {
        {
            ExclusiveLock lock(file, std::nullopt, true);
            auto o = read_lock_owner(file);
            REQUIRE(o);
            CHECK(o->host == platform::host_name());
            CHECK(o->pid == platform::current_pid());
            CHECK_THROWS_AS(ExclusiveLock(file, std::chrono::seconds(0), true), Error);
        }
        CHECK_FALSE(fsx::exists(file));
    }
    SUBCASE("a lock of a dead process on this host is recovered") {
        write(file, "cudaenv-lock 1\nhost=" + platform::host_name() + "\npid=99999999\ntoken=dead\nsince=1\nend\n");
        ExclusiveLock lock(file, std::chrono::seconds(0), true);
        CHECK(read_lock_owner(file)->pid == platform::current_pid());
    }
    SUBCASE("a fresh lock of another host is waited for") {
        write(file, "cudaenv-lock 1\nhost=elsewhere\npid=1\ntoken=x\nsince=1\nend\n");
        CHECK_THROWS_AS(ExclusiveLock(file, std::chrono::seconds(0), true), Error);
        CHECK(read_lock_owner(file)->host == "elsewhere");
    }
    SUBCASE("an incomplete file is not an owner") {
        write(file, "cudaenv-lock 1\nhost=a\npid=3\n");
        CHECK_FALSE(read_lock_owner(file));
    }
}
