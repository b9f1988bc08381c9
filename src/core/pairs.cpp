#include "core/pairs.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

std::string Pair::spec() const {
    return toolkit.version.str() + "+" + (cudnn ? cudnn->version.str() : std::string("none"));
}

std::string Pair::id() const {
    auto id = fsx::to_utf8(toolkit.path) + "\n";
    if (cudnn) id += fsx::to_utf8(cudnn->path) + "\n" + cudnn->variant;
    return id;
}

std::vector<std::string> origin_names(const fs::path& folder, bool managed) {
    std::vector<std::string> out;
    auto label = [](std::string s) {
        for (auto& c : s) {
            if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-')) c = '-';
        }
        while (!s.empty() && !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))) s.erase(0, 1);
        if (s.size() > 32) s.resize(32);
        return s;
    };
    auto n = fsx::absolute_normal(folder);
    auto text = fsx::to_utf8(n);
    std::replace(text.begin(), text.end(), '\\', '/');
    if (managed) out.push_back("store");
    else if (text.find("/site-packages/nvidia/") != std::string::npos || text.find("/Lib/site-packages/nvidia/") != std::string::npos)
        out.push_back("pip");
    else if (text == "/usr" || text.starts_with("/usr/lib") || text.starts_with("/usr/include"))
        out.push_back("system");
    auto own = label(fsx::to_utf8(n.filename()));
    auto parent = label(fsx::to_utf8(n.parent_path().filename()));
    for (const auto& o : {own, parent.empty() || own.empty() ? std::string() : label(parent + "-" + own)})
        if (Spec::valid_origin(o) && std::find(out.begin(), out.end(), o) == out.end()) out.push_back(o);
    return out;
}

bool cudnn_fits(const CudnnRecord& c, const ToolkitRecord& t) {
    return c.cuda_major != 0 && c.cuda_major == t.version.major();
}

std::string installed_summary(Inventory& store) {
    // An error message, not a listing: a store of thousands names a few and says how many more.
    constexpr size_t shown = 8;
    std::string out;
    auto add = [&](const std::string& item) { out += (out.empty() ? "" : ", ") + item; };
    const auto toolkits = store.toolkits();
    for (size_t i = 0; i < toolkits.size() && i < shown; ++i) add("CUDA " + toolkits[i].version.str());
    if (toolkits.size() > shown) add(std::to_string(toolkits.size() - shown) + " more CUDA");
    const auto cudnns = store.cudnns();
    for (size_t i = 0; i < cudnns.size() && i < shown; ++i)
        add("cuDNN " + cudnns[i].version.str() +
            (cudnns[i].cuda_major ? " (CUDA " + std::to_string(cudnns[i].cuda_major) + ")" : ""));
    if (cudnns.size() > shown) add(std::to_string(cudnns.size() - shown) + " more cuDNN");
    return out.empty() ? "nothing" : out;
}

namespace {

bool has_origin(const fs::path& folder, bool managed, const std::string& origin) {
    if (origin.empty()) return true;
    auto names = origin_names(folder, managed);
    return std::find(names.begin(), names.end(), origin) != names.end();
}

bool toolkit_matches(const ToolkitRecord& t, const Spec& spec) {
    return t.version.matches(spec.cuda) && has_origin(t.path, t.managed, spec.cuda_origin);
}

bool cudnn_matches(const CudnnRecord& c, const Spec& spec) {
    return c.version.matches(spec.cudnn) && has_origin(c.path, c.managed, spec.cudnn_origin);
}

// The cuDNNs that fit each CUDA major, in the inventory's order (newest
// first): choosing a default or listing the pairs of 2,000 toolkits then
// looks at the cuDNNs of its major only, not at every cuDNN again.
class FitIndex {
public:
    explicit FitIndex(const std::vector<CudnnRecord>& cudnns) {
        for (const auto& c : cudnns)
            if (c.cuda_major != 0) by_major_[c.cuda_major].push_back(&c);
    }
    const std::vector<const CudnnRecord*>& fitting(const ToolkitRecord& t) const {
        static const std::vector<const CudnnRecord*> none;
        auto it = by_major_.find(t.version.major());
        return it == by_major_.end() ? none : it->second;
    }

private:
    std::map<int, std::vector<const CudnnRecord*>> by_major_;
};

// The default cuDNN for a toolkit: its pin, else the newest that fits.
std::optional<CudnnRecord> default_cudnn(const ToolkitRecord& t, Inventory& store,
                                         const std::vector<CudnnRecord>& cudnns, const FitIndex& fits) {
    const auto pinned = store.pin(t.version.str());  // the user's, else the system store admin's
    if (pinned) {
        // The same cuDNN version is often there for two CUDA majors: the pin
        // means the build for this toolkit (or one of unknown major).
        if (auto pv = Version::parse(*pinned))
            for (const auto& c : cudnns)
                if (c.version.matches(*pv) && (cudnn_fits(c, t) || c.cuda_major == 0)) return c;
    }
    const auto& fit = fits.fitting(t);
    if (!fit.empty()) return *fit.front();
    return std::nullopt;
}

// The first toolkit `spec` matches, in selection order (nullptr: none).
const ToolkitRecord* first_toolkit(const Spec& spec, const std::vector<ToolkitRecord>& toolkits) {
    for (const auto& t : toolkits)
        if (toolkit_matches(t, spec)) return &t;
    return nullptr;
}

// The cuDNN an explicit cuDNN version selects for toolkit `t`: the first that
// matches and fits it or is of unknown CUDA major (nullptr: none).
const CudnnRecord* first_cudnn(const Spec& spec, const ToolkitRecord& t, const std::vector<CudnnRecord>& cudnns) {
    for (const auto& c : cudnns)
        if (cudnn_matches(c, spec) && (cudnn_fits(c, t) || c.cuda_major == 0)) return &c;
    return nullptr;
}

// Whether `spec` selects exactly `p` (what select_pair() answers), asked of
// the lists directly: for one pair, cheaper than an index of every record.
bool selects(const Spec& spec, const Pair& p, const std::vector<ToolkitRecord>& toolkits,
             const std::vector<CudnnRecord>& cudnns) {
    const auto* t = first_toolkit(spec, toolkits);
    if (!t || t->path != p.toolkit.path) return false;
    if (spec.cudnn_kind == Spec::Cudnn::none) return !p.cudnn;
    if (spec.cudnn_kind != Spec::Cudnn::version) return false;  // the candidates always name their cuDNN
    const auto* c = first_cudnn(spec, *t, cudnns);
    return c && p.cudnn && c->path == p.cudnn->path && c->variant == p.cudnn->variant;
}

// The specs that could name `p`, shortest first: its full versions, then an
// origin on the toolkit, the cuDNN, or both.
std::vector<std::string> spec_candidates(const Pair& p) {
    const auto base = p.spec();
    std::vector<std::string> out = {base};
    auto tk_names = origin_names(p.toolkit.path, p.toolkit.managed);
    std::vector<std::string> cudnn_names;
    if (p.cudnn) cudnn_names = origin_names(p.cudnn->path, p.cudnn->managed);
    const auto tv = p.toolkit.version.str();
    const auto rest = p.cudnn ? p.cudnn->version.str() : std::string("none");
    for (const auto& o : tk_names) out.push_back(tv + "@" + o + "+" + rest);
    for (const auto& o : cudnn_names) out.push_back(tv + "+" + rest + "@" + o);
    for (const auto& a : tk_names)
        for (const auto& b : cudnn_names) out.push_back(tv + "@" + a + "+" + rest + "@" + b);
    return out;
}

}  // namespace

Pair select_pair(const Spec& spec, Inventory& store) { return select_pair(spec, store, store.toolkits(), store.cudnns()); }

Pair select_pair(const Spec& spec, Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                 const std::vector<CudnnRecord>& cudnns) {
    const ToolkitRecord* tk = first_toolkit(spec, toolkits);
    if (!tk)
        throw Error("no installed CUDA matches '" + spec.str() + "' (installed: " + installed_summary(store) + ")",
                    "run `cudaenv list`, or `cudaenv discover --add` / `cudaenv install " + spec.cuda.str() + "`");
    Pair pair{*tk, std::nullopt};
    switch (spec.cudnn_kind) {
        case Spec::Cudnn::none: break;
        case Spec::Cudnn::default_: pair.cudnn = default_cudnn(*tk, store, cudnns, FitIndex(cudnns)); break;
        case Spec::Cudnn::version: {
            if (const auto* c = first_cudnn(spec, *tk, cudnns)) {
                pair.cudnn = *c;
                break;
            }
            for (const auto& c : cudnns)
                if (cudnn_matches(c, spec))
                    throw Error("cuDNN " + c.version.str() + " is built for CUDA " + std::to_string(c.cuda_major) +
                                    ", not for CUDA " + tk->version.str(),
                                "install the cuDNN build for CUDA " + std::to_string(tk->version.major()) +
                                    " (cudaenv install " + spec.cuda.str() + "+" + spec.cudnn.str() + ")");
            throw Error("no installed cuDNN matches '" + spec.cudnn.str() + "' (installed: " +
                            installed_summary(store) + ")",
                        "run `cudaenv list`, or `cudaenv install " + spec.str() + "`");
        }
    }
    return pair;
}

std::string unique_spec(const Pair& pair, Inventory& store) {
    return unique_spec(pair, store.toolkits(), store.cudnns());
}

std::string unique_spec(const Pair& pair, const std::vector<ToolkitRecord>& toolkits,
                        const std::vector<CudnnRecord>& cudnns) {
    for (const auto& c : spec_candidates(pair))
        if (auto spec = Spec::parse(c); spec && selects(*spec, pair, toolkits, cudnns)) return c;
    return pair.spec();
}

std::vector<ToolkitRecord> matching_toolkits(const Spec& spec, Inventory& store) {
    return matching_toolkits(spec, store.toolkits());
}

std::vector<ToolkitRecord> matching_toolkits(const Spec& spec, const std::vector<ToolkitRecord>& toolkits) {
    std::vector<ToolkitRecord> out;
    if (spec.system) return out;
    for (const auto& t : toolkits)
        if (toolkit_matches(t, spec)) out.push_back(t);
    return out;
}

std::vector<std::string> choice_explanation(const Spec& spec, const Pair& chosen, Inventory& store,
                                            const std::vector<ToolkitRecord>& toolkits) {
    auto matches = matching_toolkits(spec, toolkits);
    if (matches.size() < 2) return {};
    // Each install named as `list` names it: its default pair's spec. A store
    // of thousands names a few (the choice is made without listing any pair).
    constexpr size_t named = 5;
    const auto cudnns = store.cudnns();
    const FitIndex fits(cudnns);
    std::vector<std::string> out = {
        "'" + spec.str() + "' matches " + std::to_string(matches.size()) + " CUDA installs; using " +
        unique_spec(chosen, toolkits, cudnns) + " (" + fsx::to_utf8(chosen.toolkit.path) +
        "): the newest version, and on a tie the store's own install first, then the first adopted"};
    size_t others = 0;
    for (const auto& t : matches) {
        if (t.path == chosen.toolkit.path) continue;
        if (++others > named) continue;
        Pair p{t, default_cudnn(t, store, cudnns, fits)};
        out.push_back("the other: " + unique_spec(p, toolkits, cudnns) + " (" + fsx::to_utf8(t.path) + ")");
    }
    if (others > named)
        out.push_back("and " + std::to_string(others - named) + " others (`cudaenv list` names each)");
    return out;
}

namespace {

// What select_pair() answers for specs made of a listed pair's exact
// versions and origins, for every pair at once: the first toolkit (in
// selection order) under each version prefix and origin it matches, and the
// first cuDNN under each version prefix, origin and CUDA major. Building it
// reads each record once, so naming n pairs costs n log n, not n^2
// (select_pair() per candidate lists the store again: 2,000 adopted
// installs of one version took 7 s).
class SelectionIndex {
public:
    // Indexes each record under its version prefixes; under its origins too
    // only once a spec with an origin is asked (most pairs are named by their
    // versions alone, and working out every folder's origins is most of the cost).
    SelectionIndex(const std::vector<ToolkitRecord>& toolkits, const std::vector<CudnnRecord>& cudnns)
        : toolkits_(toolkits), cudnns_(cudnns) {
        index({std::string()}, {std::string()});
    }

    // The toolkit `spec` selects, as select_pair() picks it (npos: none).
    size_t toolkit(const Spec& spec) {
        if (!spec.cuda_origin.empty()) with_origins();
        auto it = toolkit_.find({spec.cuda, spec.cuda_origin});
        return it == toolkit_.end() ? npos : it->second;
    }
    // The cuDNN an explicit cuDNN version selects for toolkit `t`: the first
    // that matches and fits it, or is of unknown CUDA major (npos: none).
    size_t cudnn(const Spec& spec, const ToolkitRecord& t) {
        if (!spec.cudnn_origin.empty()) with_origins();
        size_t best = npos;
        for (int major : {t.version.major(), 0})
            if (auto it = cudnn_.find({spec.cudnn, spec.cudnn_origin, major}); it != cudnn_.end())
                best = std::min(best, it->second);
        return best;
    }

    static constexpr size_t npos = static_cast<size_t>(-1);

private:
    // Each record under each of `tk_origins` / `dnn_origins` (empty: its own origin names).
    void index(const std::vector<std::string>& tk_origins, const std::vector<std::string>& dnn_origins) {
        for (size_t i = 0; i < toolkits_.size(); ++i) {
            const auto& t = toolkits_[i];
            for (const auto& o : tk_origins.empty() ? origin_names(t.path, t.managed) : tk_origins)
                for (size_t k = 1; k <= t.version.parts().size(); ++k) toolkit_.emplace(std::pair{t.version.prefix(k), o}, i);
        }
        for (size_t i = 0; i < cudnns_.size(); ++i) {
            const auto& c = cudnns_[i];
            for (const auto& o : dnn_origins.empty() ? origin_names(c.path, c.managed) : dnn_origins)
                for (size_t k = 1; k <= c.version.parts().size(); ++k)
                    cudnn_.emplace(std::tuple{c.version.prefix(k), o, c.cuda_major}, i);
        }
    }
    void with_origins() {
        if (std::exchange(origins_, true)) return;
        index({}, {});
    }
    const std::vector<ToolkitRecord>& toolkits_;
    const std::vector<CudnnRecord>& cudnns_;
    bool origins_ = false;
    std::map<std::pair<Version, std::string>, size_t> toolkit_;
    std::map<std::tuple<Version, std::string, int>, size_t> cudnn_;
};

}  // namespace

std::vector<std::string> unique_specs(const std::vector<Pair>& pairs, Inventory& store) {
    return unique_specs(pairs, store.toolkits(), store.cudnns());
}

std::vector<std::string> unique_specs(const std::vector<Pair>& pairs, const std::vector<ToolkitRecord>& toolkits,
                                      const std::vector<CudnnRecord>& cudnns) {
    SelectionIndex index(toolkits, cudnns);
    auto selects_by_index = [&](const std::string& text, const Pair& p) {
        auto spec = Spec::parse(text);
        if (!spec) return false;
        auto t = index.toolkit(*spec);
        if (t == SelectionIndex::npos || toolkits[t].path != p.toolkit.path) return false;
        if (spec->cudnn_kind == Spec::Cudnn::none) return !p.cudnn;
        auto c = index.cudnn(*spec, toolkits[t]);
        return c != SelectionIndex::npos && p.cudnn && cudnns[c].path == p.cudnn->path &&
               cudnns[c].variant == p.cudnn->variant;
    };
    std::vector<std::string> out;
    out.reserve(pairs.size());
    for (const auto& p : pairs) {
        // Most pairs are named by their versions alone: the origins are
        // worked out only where those do not select the pair.
        auto base = p.spec();
        if (selects_by_index(base, p)) {
            out.push_back(std::move(base));
            continue;
        }
        std::string chosen = base;
        for (const auto& c : spec_candidates(p))
            if (selects_by_index(c, p)) {
                chosen = c;
                break;
            }
        out.push_back(chosen);
    }
    return out;
}

std::vector<Pair> default_pairs(Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                                const std::vector<CudnnRecord>& cudnns) {
    const FitIndex fits(cudnns);
    std::vector<Pair> out;
    out.reserve(toolkits.size());
    for (const auto& t : toolkits) out.push_back({t, default_cudnn(t, store, cudnns, fits)});
    return out;
}

std::vector<Pair> all_pairs(Inventory& store) { return all_pairs(store, store.toolkits(), store.cudnns()); }

std::vector<Pair> all_pairs(Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                            const std::vector<CudnnRecord>& cudnns) {
    const FitIndex fits(cudnns);
    std::vector<Pair> out;
    for (const auto& t : toolkits) {
        auto def = default_cudnn(t, store, cudnns, fits);
        out.push_back({t, def});
        for (const auto* c : fits.fitting(t))
            if (!def || c->path != def->path || c->variant != def->variant) out.push_back({t, *c});
    }
    return out;
}

std::vector<CudnnRecord> cudnns_without_toolkit(Inventory& store) {
    return cudnns_without_toolkit(store.toolkits(), store.cudnns());
}

std::vector<CudnnRecord> cudnns_without_toolkit(const std::vector<ToolkitRecord>& toolkits,
                                                const std::vector<CudnnRecord>& cudnns) {
    std::set<int> majors;
    for (const auto& t : toolkits) majors.insert(t.version.major());
    std::vector<CudnnRecord> out;
    for (const auto& c : cudnns)
        if (c.cuda_major == 0 || !majors.count(c.cuda_major)) out.push_back(c);
    return out;
}

namespace {

// Reads the folders every time.
class DiskDetector final : public FolderDetector {
public:
    std::optional<Toolkit> toolkit(const fs::path& dir) override { return detect_toolkit(fsx::absolute_normal(dir)); }
    std::optional<Cudnn> cudnn(const fs::path& dir, const std::string& variant) override {
        return detect_cudnn(fsx::absolute_normal(dir), variant);
    }
};

}  // namespace

DetectedPair detect_pair(const Pair& pair) {
    DiskDetector disk;
    return detect_pair(pair, disk);
}

DetectedPair detect_pair(const Pair& pair, FolderDetector& cache) {
    auto tk = cache.toolkit(pair.toolkit.path);
    if (!tk)
        throw Error("the CUDA " + pair.toolkit.version.str() + " folder '" + fsx::to_utf8(pair.toolkit.path) +
                        "' is missing or no longer holds a toolkit",
                    "run `cudaenv uninstall " + pair.toolkit.version.str() + "` to forget it");
    DetectedPair out{*tk, std::nullopt};
    if (pair.cudnn) {
        auto c = cache.cudnn(pair.cudnn->path, pair.cudnn->variant);
        if (!c)
            throw Error("the cuDNN " + pair.cudnn->version.str() + " folder '" + fsx::to_utf8(pair.cudnn->path) +
                            "' is missing or no longer holds cuDNN",
                        "run `cudaenv uninstall " + pair.toolkit.version.str() + "+" + pair.cudnn->version.str() +
                            "` to forget it");
        out.cudnn = *c;
    }
    return out;
}

}  // namespace cudaenv
