// view/pair_rows and view/pair_view: `list`'s table and its JSON come from
// one row (issue 36.3), and the rows name the pairs as selection does.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "store/store.hpp"
#include "test_support.hpp"
#include "view/pair_view.hpp"

using namespace cudaenv;
using testsupport::TempDir;

namespace {

using testsupport::V;

// Managed 12.6.3 and 11.8.0, an adopted 12.6.3 (so one spec needs an
// origin), cuDNNs for 12 and 11, a cuDNN for 13 that fits no toolkit, a pin.
struct Fixture {
    TempDir tmp{"pairview"};
    Store store{tmp.path() / "store"};

    Fixture() {
        for (const char* t : {"12.6.3", "11.8.0"}) fs::create_directories(store.toolkits_dir() / t);
        for (const char* c : {"9.1.0_cuda12", "9.6.0_cuda12", "8.9.7_cuda11", "9.13.0_cuda13"})
            fs::create_directories(store.cudnn_dir() / c);
        store.config().toolkits.push_back({"/usr/local/cuda-12.6", V("12.6.3")});
        store.config().pins["11.8.0"] = "8.9.7";
    }
};

// A verdict as judge_pair gives it: one GPU, the pair's worst.
gpu::PairVerdict verdict(gpu::Runs runs, const std::string& why) {
    gpu::PairVerdict v;
    gpu::GpuVerdict g;
    g.gpu = {0, "NVIDIA Test", {61, false}};
    g.runs = runs;
    g.why = why;
    v.gpus.push_back(g);
    v.runs = runs;
    return v;
}

}  // namespace

TEST_CASE("list's rows: each toolkit with its default cuDNN, --all with every one that fits") {
    Fixture f;
    auto defaults = view::list_pairs(f.store, view::Which::defaults, {});
    std::vector<std::string> specs;
    for (const auto& r : defaults.rows) specs.push_back(r.spec);
    CHECK(specs == std::vector<std::string>{"12.6.3+9.6.0", "12.6.3@cuda-12.6+9.6.0", "11.8.0+8.9.7"});
    REQUIRE(defaults.loose.size() == 1);
    CHECK(defaults.loose[0].record.version == V("9.13.0"));
    CHECK(defaults.loose[0].where == "store");

    auto all = view::list_pairs(f.store, view::Which::all, {});
    CHECK(all.rows.size() == 5);  // 2 toolkits of 12 x 2 cuDNNs, 11.8 x 1
    CHECK(all.rows[0].spec == "12.6.3+9.6.0");
    CHECK(all.rows[1].spec == "12.6.3+9.1.0");
    // Every spec selects exactly its row's pair.
    for (const auto& r : all.rows) {
        CAPTURE(r.spec);
        CHECK(select_pair(*Spec::parse(r.spec), f.store).same_as(r.pair));
    }
}

TEST_CASE("list's table and JSON come from one row") {
    Fixture f;
    gpu::Machine m;
    m.gpus.push_back({0, "NVIDIA Test", {61, false}});
    auto active = select_pair(*Spec::parse("11.8"), f.store);
    auto listing = view::list_pairs(f.store, view::Which::defaults, {active, &m});
    REQUIRE(listing.rows.size() == 3);
    // The rows' verdicts as judge_pairs would give them (the folders here hold no library).
    listing.rows[0].gpu = verdict(gpu::Runs::native, "sm_61 SASS");
    listing.rows[1].gpu = verdict(gpu::Runs::jit, "PTX compute_52 (JIT)");
    listing.rows[2].gpu = verdict(gpu::Runs::no, "has sm_70-sm_90");
    listing.rows[2].last_check = "pass: 0.1 ms";

    const auto j = view::listing_json(listing);
    const auto t = view::listing_table(listing);
    CHECK(t.header == std::vector<std::string>{"", "SPEC", "CUDA", "CUDNN", "WHERE", "CHECK", "GPU"});
    REQUIRE(t.rows.size() == listing.rows.size() + listing.loose.size());
    for (size_t i = 0; i < listing.rows.size(); ++i) {
        const auto& row = listing.rows[i];
        const auto& cells = t.rows[i];
        const auto& js = j["pairs"][i];
        CAPTURE(row.spec);
        // Each cell is the row's value, and the JSON says the same.
        CHECK(cells[0] == (row.active ? "*" : ""));
        CHECK(js["active"] == row.active);
        CHECK(cells[1] == row.spec);
        CHECK(js["spec"] == row.spec);
        CHECK(cells[2] == row.pair.toolkit.version.str());
        CHECK(js["cuda"]["version"] == cells[2]);
        CHECK(js["cuda"]["path"] == row.pair.toolkit.path.string());
        CHECK(cells[3] == (row.pair.cudnn ? row.pair.cudnn->version.str() : "-"));
        CHECK(js["cudnn"]["version"] == cells[3]);
        CHECK(cells[4] == row.where);
        CHECK(js["where"] == row.where);
        CHECK(cells[5] == row.last_check.value_or("-"));
        CHECK((js["check"].is_null() ? "-" : js["check"].get<std::string>()) == cells[5]);
        CHECK(cells[6] == gpu::runs_cell(*row.gpu));
        CHECK(js["gpu"]["runs"] == cells[6]);
    }
    CHECK(t.rows[2][0] == "*");  // the active pair
    CHECK(t.rows[1][4] == "/usr/local/cuda-12.6 + store");
    // The loose cuDNN: its row and its JSON.
    CHECK(t.rows[3] == std::vector<std::string>{"", "-", "-", "9.13.0 (for CUDA 13)", "store", "no toolkit for it", ""});
    CHECK(j["cudnn_without_toolkit"][0]["version"] == "9.13.0");
    // The notes below the table: the JSON's summary of each pair that is not native.
    REQUIRE(t.notes.size() == 2);
    CHECK(t.notes[0] == listing.rows[1].spec + ": " + j["pairs"][1]["gpu"]["summary"].get<std::string>());
    CHECK(t.notes[1].starts_with("11.8.0+8.9.7: no: "));
}

TEST_CASE("a row without a GPU verdict (current) says null, and the table '-'") {
    Fixture f;
    auto pair = select_pair(*Spec::parse("12.6@cuda-12.6"), f.store);
    auto row = view::pair_row(f.store, pair, {pair, nullptr});
    CHECK(row.spec == "12.6.3@cuda-12.6+9.6.0");
    CHECK(row.active);
    auto j = view::row_json(row, nullptr);
    CHECK(j["gpu"].is_null());
    CHECK(j["check"].is_null());
    CHECK(j["cudnn"]["cuda_major"] == 12);
    view::Listing one{{row}, {}, nullptr};
    auto t = view::listing_table(one);
    CHECK(t.rows[0][6] == "-");
    CHECK(t.notes.empty());
}
