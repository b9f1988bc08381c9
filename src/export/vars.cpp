#include "export/vars.hpp"

#include <algorithm>

#include "core/activation.hpp"
#include "core/spec.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::exporting {

std::optional<std::string> PairVars::get(const std::string& name) const {
    for (const auto& [n, v] : set)
        if (n == name) return v;
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

PairVars pair_vars(Store& store, const Pair& pair, const EnvReader& env, PathStyle style) {
    PairVars out;
    out.pair = pair;
    out.spec = pair.spec();
    out.cuda_version = pair.toolkit.version.str();
    if (pair.cudnn) out.cudnn_version = pair.cudnn->version.str();
    auto detected = detect_pair(pair);
    auto penv = pair_env(detected, out.spec);
    out.cuda_root = penv.cuda_root;
    auto roots = known_roots(store);
    auto owned = [&](const std::string& e) { return is_cuda_entry(e, roots, style); };
    // The plan is computed against two made-up environments: an empty one
    // gives each variable's value; one where every variable holds a marker
    // tells list variables (the marker survives at their end) from plain ones
    // and finds what the plan unsets. cudaenv's own state (__CUDAENV_*) is
    // for `deactivate` and stays out of exported files.
    const std::string marker = "\x1f" "cudaenv-export-marker";
    auto empty = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    auto marked = [&](const std::string& name) -> std::optional<std::string> {
        if (name.starts_with("__CUDAENV")) return std::nullopt;
        return marker;
    };
    auto plain = plan_use(penv, out.spec, empty, owned, style);
    auto probe = plan_use(penv, out.spec, marked, owned, style);
    const std::string tail = std::string(1, list_separator(style)) + marker;
    for (const auto& c : probe) {
        if (c.name.starts_with("__CUDAENV")) continue;
        if (!c.value) {
            bool set_when_empty = std::any_of(plain.begin(), plain.end(), [&](const EnvChange& p) { return p.name == c.name && p.value; });
            if (!set_when_empty) out.unset.push_back(c.name);
            continue;
        }
        if (c.value->size() > tail.size() && c.value->ends_with(tail)) {
            auto head = c.value->substr(0, c.value->size() - tail.size());
            out.prepend.emplace_back(c.name, split_path_list(head, style));
            continue;
        }
        out.set.emplace_back(c.name, *c.value);
    }
    // A variable the plan leaves alone when it already has a value but sets
    // when it has none is still the pair's: take it from the empty run.
    for (const auto& c : plain) {
        if (c.name.starts_with("__CUDAENV") || !c.value) continue;
        bool known = out.get(c.name).has_value() ||
                     std::any_of(out.prepend.begin(), out.prepend.end(), [&](const auto& p) { return p.first == c.name; });
        if (!known) out.set.emplace_back(c.name, *c.value);
    }
    auto changes = plan_use(penv, out.spec, env, owned, style);
    for (const auto& c : plain) {
        if (c.name.starts_with("__CUDAENV") || !c.value) continue;
        std::optional<std::string> v = env(c.name);  // unchanged by the plan
        for (const auto& h : changes)
            if (h.name == c.name) v = h.value;
        if (v) out.here.emplace_back(c.name, *v);
    }
    out.last_check = store.last_check(out.spec, fsx::to_utf8(pair.toolkit.path), pair.cudnn ? fsx::to_utf8(pair.cudnn->path) : "");
    return out;
}

}  // namespace cudaenv::exporting
