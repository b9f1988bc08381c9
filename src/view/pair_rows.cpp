#include "view/pair_rows.hpp"

#include "gpu/code_cache.hpp"
#include "store/detect_cache.hpp"
#include "store/node_checks.hpp"
#include "util/fs.hpp"

namespace cudaenv::view {

namespace {

// "store", "shared" (the system store's own folder), or the adopted folder
// ("... (shared)" when the system store adopted it).
template <class Record>
std::string where(const Record& r) {
    if (r.managed) return r.shared ? "shared" : "store";
    return fsx::to_utf8(r.path) + (r.shared ? " (shared)" : "");
}

std::string where(const Pair& p) {
    auto out = where(p.toolkit);
    // A cuDNN that lives where its toolkit does is not named twice.
    if (p.cudnn && (p.cudnn->managed != p.toolkit.managed || p.cudnn->shared != p.toolkit.shared || !p.cudnn->managed))
        out += " + " + where(*p.cudnn);
    return out;
}

// Whether each pair runs on `m`'s GPUs: folders and code from the caches
// (gpu/pair_code.hpp judge_pairs), never the probe. Nothing is read when the
// machine's GPUs are unknown.
std::vector<gpu::PairVerdict> verdicts(Store& store, const std::vector<Pair>& pairs, const gpu::Machine& m) {
    if (!m.known()) return std::vector<gpu::PairVerdict>(pairs.size());
    DetectionCache folders(store);
    gpu::CodeCache code(store.root());
    return gpu::judge_pairs(pairs, folders, code, m, gpu::Scan::read);
}

}  // namespace

std::vector<PairRow> pair_rows(Store& store, std::vector<Pair> pairs, const std::vector<ToolkitRecord>& toolkits,
                               const std::vector<CudnnRecord>& cudnns, const RowInputs& in) {
    const auto specs = unique_specs(pairs, toolkits, cudnns);
    // The result on this node (a shared store spans nodes with other GPUs and drivers).
    const auto checks = node_last_checks(store);
    std::vector<gpu::PairVerdict> runs;
    if (in.machine) runs = verdicts(store, pairs, *in.machine);
    std::vector<PairRow> out;
    out.reserve(pairs.size());
    for (size_t i = 0; i < pairs.size(); ++i) {
        auto& p = pairs[i];
        PairRow row{{}, specs[i], in.active && in.active->same_as(p), where(p), std::nullopt, std::nullopt};
        if (!checks.empty()) {
            auto it = checks.find({fsx::to_utf8(p.toolkit.path), p.cudnn ? fsx::to_utf8(p.cudnn->path) : std::string()});
            if (it != checks.end()) row.last_check = it->second;
        }
        if (in.machine) row.gpu = std::move(runs[i]);
        row.pair = std::move(p);
        out.push_back(std::move(row));
    }
    return out;
}

PairRow pair_row(Store& store, const Pair& pair, const RowInputs& in) {
    return pair_rows(store, {pair}, store.toolkits(), store.cudnns(), in).front();
}

Listing list_pairs(Store& store, Which which, const RowInputs& in) {
    // The store's lists are read once, for the pairs, their specs and the loose cuDNNs.
    const auto toolkits = store.toolkits();
    const auto cudnns = store.cudnns();
    auto pairs = which == Which::all ? all_pairs(store, toolkits, cudnns) : default_pairs(store, toolkits, cudnns);
    Listing out{pair_rows(store, std::move(pairs), toolkits, cudnns, in), {}, in.machine};
    for (auto& c : cudnns_without_toolkit(toolkits, cudnns)) {
        auto w = where(c);
        out.loose.push_back({std::move(c), std::move(w)});
    }
    return out;
}

}  // namespace cudaenv::view
