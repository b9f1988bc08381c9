// Whether a shared system store may be trusted: the judgement over what the OS
// says (tests/cluster/test_shared_store.py's Trust group runs it for real, as
// root with an unprivileged user; tests/unit/platform/platform_win32_test.cpp reads Windows
// access lists).
#include <doctest/doctest.h>

#include "store/store_trust.hpp"
#include "store/system_store.hpp"
#include "platform/platform.hpp"
#include "test_support.hpp"

using namespace cudaenv;
using platform::PathTrust;

namespace {

PathTrust admin() { return {true, "root", "0", true, false, {}}; }
PathTrust user(const std::string& uid, std::vector<std::string> writers = {}) {
    return {true, "uid " + uid, uid, false, false, std::move(writers)};
}

}  // namespace

TEST_CASE("judge_path: owned by an administrator or the store's owner, changed by nobody else") {
    CHECK(judge_path("/s/toolkits", admin(), admin()).empty());
    CHECK(judge_path("/s/toolkits", user("900"), user("900")).empty());  // the admin account that made the store
    CHECK(judge_path("/s/gone", PathTrust{}, admin()).empty());           // nothing there: nothing to trust
    auto planted = judge_path("/s/toolkits/12.9.1", user("1000"), admin());
    REQUIRE(planted.size() == 1);
    const std::string admin_name = platform::is_windows ? "an administrator" : "root";
    CHECK(planted[0] == "'/s/toolkits/12.9.1' belongs to uid 1000, not to " + admin_name);
    CHECK(judge_path("/s/toolkits/12.9.1", user("1000"), user("900"))[0] ==
          "'/s/toolkits/12.9.1' belongs to uid 1000, not to " + admin_name + " or uid 900");
    auto open = admin();
    open.writers = {"everyone (mode 1777)"};
    CHECK(judge_path("/s/toolkits", open, admin()) ==
          std::vector<std::string>{"'/s/toolkits' can be changed by everyone (mode 1777)"});
}

TEST_CASE("judge_root: a store owned by another account counts when nobody else could have made it") {
    auto sticky = admin();
    sticky.writers = {"everyone (mode 1777)"};
    CHECK(judge_root("/opt/cudaenv", admin(), "/opt", admin(), false).empty());
    CHECK(judge_root("/tmp/cudaenv", admin(), "/tmp", sticky, false).empty());  // root's own, wherever it is
    CHECK(judge_root("/shared/cudaenv", user("900"), "/shared", admin(), false).empty());  // root gave it to its admin
    auto first = judge_root("/tmp/cudaenv", user("1000"), "/tmp", sticky, false);
    REQUIRE_FALSE(first.empty());
    CHECK(first[0] == "'/tmp/cudaenv' belongs to uid 1000, and '/tmp' can be changed by everyone (mode 1777): "
                      "anyone there could have made it");
    auto mine = user("1000");
    mine.owner_is_me = true;
    CHECK(judge_root("/tmp/cudaenv", mine, "/tmp", sticky, false).empty());  // the caller's own: nothing crosses accounts
    CHECK_FALSE(judge_root("/home/m/cudaenv", user("1000"), "/home/m", user("1001"), false).empty());
}

TEST_CASE("judge_root: root uses no store another account owns (issue 40 N4')") {
    // The admin account's store that its users use is left out for root: that
    // account could put a toolkit first on root's PATH.
    auto refused = judge_root("/shared/cudaenv", user("900"), "/shared", admin(), true);
    REQUIRE_FALSE(refused.empty());
    CHECK(refused[0].starts_with("'/shared/cudaenv' belongs to uid 900, and "));
    CHECK(refused[0].find("could put programs on") != std::string::npos);
    // Root's own store is used, and an administrator's own (on Windows owned by that user).
    CHECK(judge_root("/opt/cudaenv", admin(), "/opt", admin(), true).empty());
    auto mine = user("1000");
    mine.owner_is_me = true;
    CHECK(judge_root("/srv/cudaenv", mine, "/srv", admin(), true).empty());
}

TEST_CASE("store_problems on real folders") {
    testsupport::TempDir tmp("trust");
    auto root = tmp / "system";
    platform::create_admin_dir(root);
    CHECK(store_problems(root).empty());
    CHECK(platform::path_trust(root).writers.empty());
    if (!platform::is_windows) CHECK(platform::path_trust(root).owner_is_me);  // Windows: Administrators'
    CHECK_FALSE(platform::path_trust(root / "none").exists);
}
