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

TEST_CASE("NodeKey") {
    NodeKey a{"node1", "NVIDIA H200", "580.65.06", "9.0"};
    auto b = a;
    b.compute_capability = "";
    CHECK(a.id() == b.id());  // the compute capability follows from the GPU
    b.driver = "575.57.08";
    CHECK(a.id() != b.id());
    CHECK(a.id().size() == 12);
    auto c = NodeKey::from_json(a.to_json());
    CHECK(c.host == a.host);
    CHECK(c.gpu == a.gpu);
    CHECK(c.driver == a.driver);
    CHECK(c.compute_capability == "9.0");
    CHECK(this_node().host == platform::host_name());
}

TEST_CASE("save_node_checks") {
    TempDir t("nodes");
    Store store(t / "store");
    auto node = this_node();
    save_node_checks(store, node, {{"12.6.3+9.8.0", "/tk", "/dnn", "fail", "load: missing", "", "2026-01-01T00:00:00Z", 1}});
    save_node_checks(store, node, {{"12.6.3+9.8.0", "/tk", "/dnn", "pass", "fp32 1 ms", "", "2026-01-02T00:00:00Z", 1},
                                   {"11.8.0+none", "/tk11", "", "pass", "", "", "2026-01-02T00:00:00Z", 1}});
    auto checks = node_last_checks(store);
    CHECK(checks.at({"/tk", "/dnn"}) == "pass: fp32 1 ms");
    CHECK(checks.at({"/tk11", ""}) == "pass");
    CHECK_FALSE(checks.count({"/tk", ""}));
    auto other = node;
    other.driver = "another";
    CHECK(node_checks_file(store, other) != node_checks_file(store, node));
}
