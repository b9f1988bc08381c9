#include "core/env_diff.hpp"

#include <algorithm>

namespace cudaenv {

bool is_pair_intent(EnvOp op) { return op == EnvOp::set || op == EnvOp::unset || op == EnvOp::prepend; }

const char* op_name(EnvOp op) {
    switch (op) {
        case EnvOp::set: return "set";
        case EnvOp::unset: return "unset";
        case EnvOp::prepend: return "prepend";
        case EnvOp::fallback: return "fallback";
        case EnvOp::restore: return "restore";
        case EnvOp::state: return "state";
    }
    return "set";
}

std::vector<EnvChange> EnvDiff::changes() const {
    std::vector<EnvChange> out;
    out.reserve(edits.size());
    for (const auto& e : edits)
        if (e.changed) out.push_back({e.name, e.value});
    return out;
}

const EnvEdit* EnvDiff::find(const std::string& name) const {
    for (const auto& e : edits)
        if (e.name == name) return &e;
    return nullptr;
}

void EnvDiff::erase(const std::string& name) {
    std::erase_if(edits, [&](const EnvEdit& e) { return e.name == name; });
}

}  // namespace cudaenv
