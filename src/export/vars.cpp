#include "export/vars.hpp"

#include "core/activation.hpp"
#include "store/activation_cache.hpp"
#include "core/spec.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::exporting {

std::vector<const EnvEdit*> PairVars::intent() const {
    std::vector<const EnvEdit*> out;
    for (const auto& e : diff.edits)
        if (is_pair_intent(e.op)) out.push_back(&e);
    return out;
}

std::optional<std::string> PairVars::get(const std::string& name) const {
    const auto* e = diff.find(name);
    if (e && e->op == EnvOp::set) return e->value;
    return std::nullopt;
}

std::vector<Pair> select_pairs(Store& store, const std::vector<std::string>& specs, bool all) {
    std::vector<Pair> out;
    auto add = [&](Pair p) {
        for (const auto& q : out)
            if (q.toolkit.path == p.toolkit.path && (q.cudnn ? q.cudnn->path : fs::path()) == (p.cudnn ? p.cudnn->path : fs::path()))
                return;
        out.push_back(std::move(p));
    };
    if (all) {
        for (auto& p : all_pairs(store)) add(p);
        // every toolkit also on its own, without cuDNN
        for (const auto& t : store.toolkits()) add(Pair{t, std::nullopt});
        if (out.empty()) throw Error("no pairs to export: nothing is installed or adopted", "add one with `cudaenv add DIR` or `cudaenv install`");
        return out;
    }
    if (specs.empty()) throw UsageError("name the pairs to export, or --all", "e.g. cudaenv export lmod 11.8 12.4 -o modules");
    for (const auto& text : specs) {
        auto spec = Spec::parse_or_throw(text);
        if (spec.system) throw UsageError("`system` is not a pair and cannot be exported", "name an installed pair, e.g. 12.4");
        add(select_pair(spec, store));
    }
    return out;
}

EnvReader container_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        if (name == "PATH") return std::string("/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        return std::nullopt;
    };
}

PairVars pair_vars(Store& store, const Pair& pair, const EnvReader& env, PathStyle style) {
    PairVars out;
    out.pair = pair;
    out.spec = pair.spec();
    out.list_spec = unique_spec(pair, store);
    out.cuda_version = pair.toolkit.version.str();
    if (pair.cudnn) out.cudnn_version = pair.cudnn->version.str();
    auto a = plan_activation(store, pair, out.spec, env, style);
    out.cuda_root = fsx::to_utf8(a.folders->toolkit.root);
    out.diff = std::move(a.diff);
    out.last_check = store.last_check(out.spec, fsx::to_utf8(pair.toolkit.path), pair.cudnn ? fsx::to_utf8(pair.cudnn->path) : "");
    return out;
}

}  // namespace cudaenv::exporting
