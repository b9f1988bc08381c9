#include "core/pairs.hpp"

#include "core/system_store.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

std::string Pair::spec() const {
    return toolkit.version.str() + "+" + (cudnn ? cudnn->version.str() : std::string("none"));
}

bool cudnn_fits(const CudnnRecord& c, const ToolkitRecord& t) {
    return c.cuda_major != 0 && c.cuda_major == t.version.major();
}

std::string installed_summary(Store& store) {
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

// The default cuDNN for a toolkit: its pin, else the newest that fits.
std::optional<CudnnRecord> default_cudnn(const ToolkitRecord& t, Store& store,
                                         const std::vector<CudnnRecord>& cudnns) {
    auto& pins = store.config().pins;
    std::optional<std::string> pinned;
    if (auto pin = pins.find(t.version.str()); pin != pins.end()) pinned = pin->second;
    else pinned = shared_pin(store, t.version.str());  // the system store admin's pin, if the user has none
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

Pair select_pair(const Spec& spec, Store& store) {
    auto toolkits = store.toolkits();
    auto cudnns = store.cudnns();
    const ToolkitRecord* tk = nullptr;
    for (const auto& t : toolkits)
        if (t.version.matches(spec.cuda)) {
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
                if (!c.version.matches(spec.cudnn)) continue;
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

std::vector<Pair> all_pairs(Store& store) {
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

std::vector<CudnnRecord> cudnns_without_toolkit(Store& store) {
    std::vector<CudnnRecord> out;
    auto toolkits = store.toolkits();
    for (const auto& c : store.cudnns()) {
        bool fits = false;
        for (const auto& t : toolkits) fits = fits || cudnn_fits(c, t);
        if (!fits) out.push_back(c);
    }
    return out;
}

DetectedPair detect_pair(const Pair& pair) {
    auto tk = detect_toolkit(pair.toolkit.path);
    if (!tk)
        throw Error("the CUDA " + pair.toolkit.version.str() + " folder '" + fsx::to_utf8(pair.toolkit.path) +
                        "' is missing or no longer holds a toolkit",
                    "run `cudaenv uninstall " + pair.toolkit.version.str() + "` to forget it");
    DetectedPair out{*tk, std::nullopt};
    if (pair.cudnn) {
        auto c = detect_cudnn(pair.cudnn->path, pair.cudnn->variant);
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
