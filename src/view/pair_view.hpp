#pragma once
// The two renderers of pair rows (view/pair_rows.hpp): JSON, and the table,
// whose every cell is taken from the row's JSON through the column list in
// pair_view.cpp. So `list` and `list --json` cannot say different things: a
// table column is a JSON field (tests/unit/view/pair_view_test.cpp).
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "view/pair_rows.hpp"

namespace cudaenv::view {

// {"spec", "active", "cuda": {"version", "path", "managed", "shared"},
//  "cudnn": {... "cuda_major"} or null, "where", "check" (null: never),
//  "gpu": {"runs", "summary"} or null when not judged}.
nlohmann::json row_json(const PairRow& row, const gpu::Machine* machine);
// {"pairs": [row...], "cudnn_without_toolkit": [...], "machine": {...}}.
nlohmann::json listing_json(const Listing& listing);

// The table's cells of one row, each taken from the row's JSON (row_json)
// through the column list: "", SPEC, CUDA, CUDNN, WHERE, CHECK, GPU.
std::vector<std::string> table_header();
std::vector<std::string> row_cells(const nlohmann::json& row);

struct TableText {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> notes;  // "<spec>: <why it is not native>", one a row that is not
};
// The listing as a table: each pair's cells from its row_json (made one row
// at a time: `list --all` of a large store holds no JSON of every row), then
// the cuDNNs that fit no toolkit.
TableText listing_table(const Listing& listing);

}  // namespace cudaenv::view
