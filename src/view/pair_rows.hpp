#pragma once
// What `list`, `current` and `inspect` show of a pair: one PairRow, built in
// one function (pair_rows) from the store's records, this node's last checks
// and the GPU code cache, never by detecting the folders again. Its two
// renderers are in view/pair_view.hpp.
#include <optional>
#include <string>
#include <vector>

#include "core/pairs.hpp"
#include "gpu/machine.hpp"
#include "gpu/pair_code.hpp"
#include "store/store.hpp"

namespace cudaenv::view {

struct PairRow {
    Pair pair;
    std::string spec;                       // the shortest spec that selects exactly this pair (unique_specs)
    bool active = false;                    // the pair the active spec selects
    std::string where;                      // "store", "shared", an adopted folder, "<toolkit's> + <cuDNN's>"
    std::optional<std::string> last_check;  // on this node: "pass: ...", "fail: ..."
    std::optional<gpu::PairVerdict> gpu;    // whether it runs on the machine's GPUs, when that was asked
};

// A cuDNN that fits no toolkit the store knows.
struct LooseCudnn {
    CudnnRecord record;
    std::string where;
};

struct RowInputs {
    std::optional<Pair> active;             // starred where it is one of the rows
    const gpu::Machine* machine = nullptr;  // judge each pair for it (nullptr: no GPU verdict)
};

// The rows of `pairs`, in order. `toolkits`, `cudnns`: the store's lists
// (read once by the caller, as every row's spec is named among them).
std::vector<PairRow> pair_rows(Store& store, std::vector<Pair> pairs, const std::vector<ToolkitRecord>& toolkits,
                               const std::vector<CudnnRecord>& cudnns, const RowInputs& in);
// The row of one pair (`current`, `inspect`).
PairRow pair_row(Store& store, const Pair& pair, const RowInputs& in);

// What `list` shows: each toolkit with its default cuDNN (`defaults`), or
// with every cuDNN that fits it (`all`), and the cuDNNs that fit none.
enum class Which { defaults, all };
struct Listing {
    std::vector<PairRow> rows;
    std::vector<LooseCudnn> loose;
    const gpu::Machine* machine = nullptr;  // what the rows' GPU verdicts were judged for
};
Listing list_pairs(Store& store, Which which, const RowInputs& in);

}  // namespace cudaenv::view
