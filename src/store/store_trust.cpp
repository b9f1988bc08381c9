#include "store/store_trust.hpp"

#include <iostream>

#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

namespace {

std::string named(const fs::path& p) { return "'" + fsx::to_utf8(p) + "'"; }

std::string owners(const platform::PathTrust& root) {
    return root.owner_admin ? std::string(platform::admin_name) : platform::admin_name + std::string(" or ") + root.owner;
}

}  // namespace

std::vector<std::string> judge_path(const fs::path& path, const platform::PathTrust& t,
                                    const platform::PathTrust& root) {
    std::vector<std::string> out;
    if (!t.exists) return out;
    if (!t.owner_admin && t.owner_id != root.owner_id)
        out.push_back(named(path) + " belongs to " + t.owner + ", not to " + owners(root));
    if (!t.writers.empty()) out.push_back(named(path) + " can be changed by " + str::join(t.writers, " and "));
    return out;
}

std::vector<std::string> judge_root(const fs::path& root, const platform::PathTrust& r, const fs::path& parent,
                                    const platform::PathTrust& p, bool caller_admin) {
    auto out = judge_path(root, r, r);
    const bool others_own_it = r.exists && !r.owner_admin && !r.owner_is_me;
    bool others_could_make_it = !p.exists || !p.writers.empty() || (!p.owner_admin && p.owner_id != r.owner_id);
    if (others_own_it && others_could_make_it) {
        out.insert(out.begin(), named(root) + " belongs to " + r.owner + ", and " + named(parent) +
                                    (p.writers.empty() ? " belongs to " + p.owner
                                                       : " can be changed by " + str::join(p.writers, " and ")) +
                                    ": anyone there could have made it");
    } else if (others_own_it && caller_admin) {
        // Root using a store another account owns: whatever that account puts
        // in it goes first on root's PATH (issue 40 N4').
        const std::string admin = platform::admin_name;
        out.insert(out.begin(), named(root) + " belongs to " + r.owner + ", and " + admin +
                                    " uses no store another account owns: it could put programs on " + admin +
                                    "'s PATH");
    }
    return out;
}

std::vector<std::string> folder_problems(const fs::path& folder, const fs::path& root) {
    return judge_path(folder, platform::path_trust(folder), platform::path_trust(root));
}

bool trust_overridden() { return platform::get_env("CUDAENV_TRUST_SYSTEM_STORE").value_or("") == "1"; }

std::string trust_hint() {
    return "its admin must " + std::string(platform::admin_only_advice) + "; CUDAENV_TRUST_SYSTEM_STORE=1 uses it anyway";
}

void store_warning(const std::string& text) { std::cerr << "cudaenv: warning: " << str::visible(text) << "\n"; }

bool usable_despite(const std::vector<std::string>& problems) {
    if (problems.empty()) return true;
    if (!trust_overridden()) return false;
    for (const auto& p : problems)
        store_warning("using the shared system store although " + p + " (CUDAENV_TRUST_SYSTEM_STORE=1)");
    return true;
}

}  // namespace cudaenv
