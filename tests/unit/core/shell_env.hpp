#pragma once
// An in-memory environment for the activation tests (core/activation,
// core/msvc): what a shell would hold after evaluating the changes.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "core/env_diff.hpp"

namespace testsupport {

struct ShellEnv {
    std::map<std::string, std::string> vars;

    cudaenv::EnvReader reader() const {
        return [this](const std::string& n) -> std::optional<std::string> { return get(n); };
    }
    void apply(const std::vector<cudaenv::EnvChange>& changes) {
        for (const auto& c : changes) {
            if (c.value) vars[c.name] = *c.value;
            else vars.erase(c.name);
        }
    }
    void apply(const cudaenv::EnvDiff& diff) { apply(diff.changes()); }
    std::optional<std::string> get(const std::string& n) const {
        auto it = vars.find(n);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    }
};

}  // namespace testsupport
