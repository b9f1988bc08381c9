#pragma once
// Whether the shared system store may be trusted. Its toolkits' bin/ go first
// on the PATH of everyone who uses it, root included, so a store that anyone
// but its admin can change lets any user run code as them (a toolkits/12.9.1
// planted in a world-writable toolkits/ is picked by root's `cudaenv env 12`).
// Trusted are folders and files owned by an administrator (root; SYSTEM,
// Administrators, TrustedInstaller) or by the store's own owner (the admin
// account that made it), that nobody else may change. A store owned by anyone
// else counts only where nobody else could have made it first (its parent is
// theirs or root's, and nobody else's to change) or when it is the caller's own,
// and never for root (an administrator), whose PATH that account would then fill.
// CUDAENV_TRUST_SYSTEM_STORE=1 uses such a store anyway, with a warning each time.
#include <filesystem>
#include <string>
#include <vector>

#include "platform/trust.hpp"

namespace cudaenv {

// What is wrong with `path`, a folder or file of a store whose root is `root`
// (empty when nothing is).
std::vector<std::string> judge_path(const std::filesystem::path& path, const platform::PathTrust& t,
                                    const platform::PathTrust& root);
// The same for the root itself, with its parent's answer. `caller_admin`:
// this process runs as root (an administrator), who uses no store another
// account owns: that account could put programs on root's PATH.
std::vector<std::string> judge_root(const std::filesystem::path& root, const platform::PathTrust& r,
                                    const std::filesystem::path& parent, const platform::PathTrust& p,
                                    bool caller_admin);

// One folder the store names (an adopted toolkit or cuDNN, an installed one).
std::vector<std::string> folder_problems(const std::filesystem::path& folder, const std::filesystem::path& root);

// CUDAENV_TRUST_SYSTEM_STORE=1: use an untrusted store anyway.
bool trust_overridden();
// "cudaenv: warning: <text>" on stderr (the text made visible).
void store_warning(const std::string& text);
// Whether a store or folder with these problems may be used: with none, or
// with CUDAENV_TRUST_SYSTEM_STORE=1 (then each problem is a warning every time).
bool usable_despite(const std::vector<std::string>& problems);
// The hint for a problem: how its admin makes the store safe, or how to use it anyway.
std::string trust_hint();

}  // namespace cudaenv
