#pragma once
// What an activation does to an environment, as intent: which variables it
// sets, unsets, prepends to (and which entries it takes out of them), which
// it sets only where the user has none, which it restores, and cudaenv's own
// bookkeeping. One value that every renderer draws (as direnv's EnvDiff):
// the shells, `env --json` and `exec` apply the changes it makes to the
// environment it was planned in; the export formats draw the pair's intent,
// which does not depend on that environment. Pure.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv {

// One variable assignment: a value, or nullopt to unset.
struct EnvChange {
    std::string name;
    std::optional<std::string> value;
    bool operator==(const EnvChange&) const = default;
};

enum class EnvOp : std::uint8_t {
    set,       // the pair's value (CUDA_PATH, CUDAENV_VERSION, ...)
    unset,     // the pair has none (CUDNN_PATH for a toolkit alone)
    prepend,   // a search-path list (PATH, LD_LIBRARY_PATH): the pair's folders first
    fallback,  // set only where the user has no value of their own (NVCC_CCBIN)
    restore,   // back to how it was before cudaenv (`system`, `deactivate`, a variable only an earlier `use` set)
    state,     // cudaenv's own bookkeeping (__CUDAENV_*), so that `deactivate` can restore exactly
};

struct EnvEdit {
    EnvEdit() = default;
    EnvEdit(std::string n, EnvOp o, std::optional<std::string> v = std::nullopt, std::vector<std::string> pre = {},
            std::vector<std::string> rem = {}, bool ch = true)
        : name(std::move(n)), op(o), value(std::move(v)), prepended(std::move(pre)), removed(std::move(rem)), changed(ch) {}

    std::string name;
    EnvOp op = EnvOp::set;
    // The value afterwards in the environment this was planned in (nullopt: unset).
    std::optional<std::string> value;
    // prepend: the folders put first, in order; and the entries of the old
    // value taken out (other CUDA installs' folders, empty entries).
    std::vector<std::string> prepended, removed;
    // Whether `value` differs from what the environment held: only such
    // edits are rendered for a shell or applied to a child's environment.
    bool changed = true;
    bool operator==(const EnvEdit&) const = default;
};

// Whether an edit is the pair's own (set, unset, prepend): what a file made
// for other machines and sessions carries (not a fallback, which depends on
// the machine, nor a restore or state, which depend on the session).
bool is_pair_intent(EnvOp op);
const char* op_name(EnvOp op);

struct EnvDiff {
    std::vector<EnvEdit> edits;  // in the order they are applied

    // The assignments that turn the planned-in environment into the new one,
    // in order: every changed edit.
    std::vector<EnvChange> changes() const;
    // The edit of `name`, if any.
    const EnvEdit* find(const std::string& name) const;
    // Drops the edit of `name` (hook-env leaves CUDAENV_VERSION alone).
    void erase(const std::string& name);
    bool operator==(const EnvDiff&) const = default;
};

}  // namespace cudaenv
