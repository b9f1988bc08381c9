#include "store/uninstall.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/pairs.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

bool same_path(const fs::path& a, const fs::path& b) { return fsx::absolute_normal(a) == fsx::absolute_normal(b); }

}  // namespace

Removal plan_removal(const Spec& spec, Store& store, bool cudnn_only) {
    if (spec.system) throw UsageError("`system` is not installed by cudaenv", "give a version: cudaenv uninstall 11.8");
    auto pair = select_pair(spec, store);
    Removal r;
    if (cudnn_only) {
        if (!pair.cudnn) throw Error("CUDA " + pair.toolkit.version.str() + " has no cuDNN to remove");
        r.cudnn = pair.cudnn;
    } else {
        r.toolkit = pair.toolkit;
        if (spec.cudnn_kind == Spec::Cudnn::version) r.cudnn = pair.cudnn;
    }
    return r;
}

std::optional<std::string> removes_active(const Removal& removal, const Spec& active, Store& store) {
    if (active.system) return std::nullopt;
    std::optional<Pair> act;
    try {
        act = select_pair(active, store);
    } catch (const Error&) {
        return std::nullopt;  // the active spec matches nothing: nothing to pull away
    }
    bool hit = (removal.toolkit && same_path(act->toolkit.path, removal.toolkit->path)) ||
               (removal.cudnn && act->cudnn && same_path(act->cudnn->path, removal.cudnn->path));
    if (!hit) return std::nullopt;
    return act->spec();
}

std::vector<std::string> apply_removal(const Removal& removal, Store& store,
                                       const std::function<void(const fs::path&)>& remove_folder) {
    if (!store.locked()) throw std::logic_error("apply_removal without the store lock");
    std::vector<std::string> said;
    auto& config = store.config();
    if (const auto& tk = removal.toolkit) {
        if (tk->managed) {
            remove_folder(tk->path);
            said.push_back("removed CUDA " + tk->version.str() + " (" + fsx::to_utf8(tk->path) + ")");
        } else {
            std::erase_if(config.toolkits,
                          [&](const ExternalToolkit& t) { return same_path(fsx::from_utf8(t.path), tk->path); });
            said.push_back("forgot CUDA " + tk->version.str() + " at " + fsx::to_utf8(tk->path) +
                           " (the folder is left as it is)");
        }
        config.pins.erase(tk->version.str());
    }
    if (const auto& cd = removal.cudnn) {
        if (cd->managed) {
            remove_folder(cd->path);
            said.push_back("removed cuDNN " + cd->version.str() + " for CUDA " + std::to_string(cd->cuda_major) + " (" +
                           fsx::to_utf8(cd->path) + ")");
        } else {
            std::erase_if(config.cudnns, [&](const ExternalCudnn& c) {
                return same_path(fsx::from_utf8(c.path), cd->path) && c.variant == cd->variant;
            });
            said.push_back("forgot cuDNN " + cd->version.str() + " at " + fsx::to_utf8(cd->path) +
                           " (the folder is left as it is)");
        }
        // Pins that named this cuDNN go, unless another build of that version remains.
        auto remaining = store.cudnns();
        bool still_there = std::any_of(remaining.begin(), remaining.end(),
                                       [&](const CudnnRecord& c) { return c.version == cd->version; });
        if (!still_there)
            std::erase_if(config.pins, [&](const auto& kv) {
                auto v = Version::parse(kv.second);
                return v && cd->version.matches(*v);
            });
    }
    store.save_config();
    return said;
}

}  // namespace cudaenv
