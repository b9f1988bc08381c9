#include "core/pairs.hpp"

#include <algorithm>
#include <map>
#include <tuple>

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
    std::string out;
    for (const auto& t : store.toolkits()) {
        if (!out.empty()) out += ", ";
        out += "CUDA " + t.version.str();
    }
    for (const auto& c : store.cudnns()) {
        if (!out.empty()) out += ", ";
        out += "cuDNN " + c.version.str();
        if (c.cuda_major) out += " (CUDA " + std::to_string(c.cuda_major) + ")";
    }
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

// The default cuDNN for a toolkit: its pin, else the newest that fits.
std::optional<CudnnRecord> default_cudnn(const ToolkitRecord& t, Inventory& store,
                                         const std::vector<CudnnRecord>& cudnns) {
    const auto pinned = store.pin(t.version.str());  // the user's, else the system store admin's
    if (pinned) {
        // The same cuDNN version is often there for two CUDA majors: the pin
        // means the build for this toolkit (or one of unknown major).
        if (auto pv = Version::parse(*pinned))
            for (const auto& c : cudnns)
                if (c.version.matches(*pv) && (cudnn_fits(c, t) || c.cuda_major == 0)) return c;
    }
    for (const auto& c : cudnns)
        if (cudnn_fits(c, t)) return c;
    return std::nullopt;
}

}  // namespace

Pair select_pair(const Spec& spec, Inventory& store) { return select_pair(spec, store, store.toolkits(), store.cudnns()); }

Pair select_pair(const Spec& spec, Inventory& store, const std::vector<ToolkitRecord>& toolkits,
                 const std::vector<CudnnRecord>& cudnns) {
    const ToolkitRecord* tk = nullptr;
    for (const auto& t : toolkits)
        if (toolkit_matches(t, spec)) {
            tk = &t;
            break;
        }
    if (!tk)
        throw Error("no installed CUDA matches '" + spec.str() + "' (installed: " + installed_summary(store) + ")",
                    "run `cudaenv list`, or `cudaenv discover --add` / `cudaenv install " + spec.cuda.str() + "`");
    Pair pair{*tk, std::nullopt};
    switch (spec.cudnn_kind) {
        case Spec::Cudnn::none: break;
        case Spec::Cudnn::default_: pair.cudnn = default_cudnn(*tk, store, cudnns); break;
        case Spec::Cudnn::version: {
            const CudnnRecord* any = nullptr;
            for (const auto& c : cudnns) {
                if (!cudnn_matches(c, spec)) continue;
                if (cudnn_fits(c, *tk) || c.cuda_major == 0) {
                    pair.cudnn = c;
                    break;
                }
                if (!any) any = &c;
            }
            if (!pair.cudnn && any)
                throw Error("cuDNN " + any->version.str() + " is built for CUDA " + std::to_string(any->cuda_major) +
                                ", not for CUDA " + tk->version.str(),
                            "install the cuDNN build for CUDA " + std::to_string(tk->version.major()) +
                                " (cudaenv install " + spec.cuda.str() + "+" + spec.cudnn.str() + ")");
            if (!pair.cudnn)
                throw Error("no installed cuDNN matches '" + spec.cudnn.str() + "' (installed: " +
                                installed_summary(store) + ")",
                            "run `cudaenv list`, or `cudaenv install " + spec.str() + "`");
            break;
        }
    }
    return pair;
}

std::string unique_spec(const Pair& pair, Inventory& store) {
    const auto pairs = all_pairs(store);
    const auto names = unique_specs(pairs, store);
    for (size_t i = 0; i < pairs.size(); ++i)
        if (pairs[i].same_as(pair)) return names[i];
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
    auto pairs = all_pairs(store);
    auto specs = unique_specs(pairs, store);
    auto exact = [&](const Pair& p) {
        for (size_t i = 0; i < pairs.size(); ++i)
            if (pairs[i].same_as(p)) return specs[i];
        return p.spec();
    };
    std::vector<std::string> out = {
        "'" + spec.str() + "' matches " + std::to_string(matches.size()) + " CUDA installs; using " + exact(chosen) +
        " (" + fsx::to_utf8(chosen.toolkit.path) +
        "): the newest version, and on a tie the store's own install first, then the first adopted"};
    for (const auto& t : matches) {
        if (t.path == chosen.toolkit.path) continue;
        for (size_t i = 0; i < pairs.size(); ++i)
            if (pairs[i].toolkit.path == t.path) {
                out.push_back("the other: " + specs[i] + " (" + fsx::to_utf8(t.path) + ")");
                break;
            }
    }
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
    SelectionIndex(const std::vector<ToolkitRecord>& toolkits, const std::vector<CudnnRecord>& cudnns) {
        for (size_t i = 0; i < toolkits.size(); ++i)
            for (const auto& o : with_any(origin_names(toolkits[i].path, toolkits[i].managed)))
                for (size_t k = 1; k <= toolkits[i].version.parts().size(); ++k)
                    toolkit_.emplace(std::pair{toolkits[i].version.prefix(k), o}, i);
        for (size_t i = 0; i < cudnns.size(); ++i)
            for (const auto& o : with_any(origin_names(cudnns[i].path, cudnns[i].managed)))
                for (size_t k = 1; k <= cudnns[i].version.parts().size(); ++k)
                    cudnn_.emplace(std::tuple{cudnns[i].version.prefix(k), o, cudnns[i].cuda_major}, i);
    }

    // The toolkit `spec` selects, as select_pair() picks it (npos: none).
    size_t toolkit(const Spec& spec) const {
        auto it = toolkit_.find({spec.cuda, spec.cuda_origin});
        return it == toolkit_.end() ? npos : it->second;
    }
    // The cuDNN an explicit cuDNN version selects for toolkit `t`: the first
    // that matches and fits it, or is of unknown CUDA major (npos: none).
    size_t cudnn(const Spec& spec, const ToolkitRecord& t) const {
        size_t best = npos;
        for (int major : {t.version.major(), 0})
            if (auto it = cudnn_.find({spec.cudnn, spec.cudnn_origin, major}); it != cudnn_.end())
                best = std::min(best, it->second);
        return best;
    }

    static constexpr size_t npos = static_cast<size_t>(-1);

private:
    static std::vector<std::string> with_any(std::vector<std::string> origins) {
        origins.insert(origins.begin(), std::string());  // no origin in the spec: any install
        return origins;
    }
    std::map<std::pair<Version, std::string>, size_t> toolkit_;
    std::map<std::tuple<Version, std::string, int>, size_t> cudnn_;
};

}  // namespace

std::vector<std::string> unique_specs(const std::vector<Pair>& pairs, Inventory& store) {
    const auto toolkits = store.toolkits();
    const auto cudnns = store.cudnns();
    const SelectionIndex index(toolkits, cudnns);
    auto selects = [&](const std::string& text, const Pair& p) {
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
    for (const auto& p : pairs) {
        const auto base = p.spec();
        std::vector<std::string> candidates = {base};
        auto tk_names = origin_names(p.toolkit.path, p.toolkit.managed);
        std::vector<std::string> cudnn_names;
        if (p.cudnn) cudnn_names = origin_names(p.cudnn->path, p.cudnn->managed);
        const auto tv = p.toolkit.version.str();
        const auto rest = p.cudnn ? p.cudnn->version.str() : std::string("none");
        for (const auto& o : tk_names) candidates.push_back(tv + "@" + o + "+" + rest);
        for (const auto& o : cudnn_names) candidates.push_back(tv + "+" + rest + "@" + o);
        for (const auto& a : tk_names)
            for (const auto& b : cudnn_names) candidates.push_back(tv + "@" + a + "+" + rest + "@" + b);
        std::string chosen = base;
        for (const auto& c : candidates)
            if (selects(c, p)) {
                chosen = c;
                break;
            }
        out.push_back(chosen);
    }
    return out;
}

std::vector<Pair> all_pairs(Inventory& store) {
    std::vector<Pair> out;
    auto cudnns = store.cudnns();
    for (const auto& t : store.toolkits()) {
        auto def = default_cudnn(t, store, cudnns);
        if (def) out.push_back({t, def});
        bool any = def.has_value();
        for (const auto& c : cudnns) {
            if (!cudnn_fits(c, t) || (def && c.path == def->path && c.variant == def->variant)) continue;
            out.push_back({t, c});
            any = true;
        }
        if (!any) out.push_back({t, std::nullopt});
    }
    return out;
}

std::vector<CudnnRecord> cudnns_without_toolkit(Inventory& store) {
    std::vector<CudnnRecord> out;
    auto toolkits = store.toolkits();
    for (const auto& c : store.cudnns()) {
        bool fits = false;
        for (const auto& t : toolkits) fits = fits || cudnn_fits(c, t);
        if (!fits) out.push_back(c);
    }
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
