#pragma once
// The shared system store: a store an admin fills (`--system` on install,
// add, uninstall, check) at $CUDAENV_SYSTEM_ROOT, else /opt/cudaenv
// (%ProgramData%\cudaenv on Windows), layered read-only under every user's
// own store. Users see, use and check its pairs; per-user settings (global,
// pins, mirror) stay in their own store. docs/cluster.md describes it.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/excl_lock.hpp"
#include "store/store.hpp"

namespace cudaenv {

// Where the system store is (whether or not it exists).
std::filesystem::path system_store_root();

// What is wrong with the system store at `root` (store/store_trust's
// judgement of the folder, its toolkits/, cudnn/ and config.toml); empty when nothing is.
std::vector<std::string> store_problems(const std::filesystem::path& root);

// Layers the system store under `user` when it exists and is another folder
// and may be trusted (store/store_trust.hpp); otherwise says once why it is
// left out. Its toolkits and cuDNNs that someone else could change are left
// out the same way (append_shared).
void attach_system_store(Store& user);

// Throws when `folder` may not go into the system store at `root` (`add
// --system` of a folder that someone else could change).
void refuse_untrusted(const std::filesystem::path& folder, const std::filesystem::path& root);

// Throws a clear error when `command` would change a toolkit or cuDNN that
// lives in the shared store (without --system).
void refuse_shared_change(const ToolkitRecord* toolkit, const CudnnRecord* cudnn, const std::string& command);

// Opens the system store for writing (creating its folder, writable by its
// admin only) and locks it against other admins on any node; throws a
// one-line error before anything is written when this user cannot write it
// or when it may not be trusted.
std::unique_ptr<ExclusiveLock> lock_system_store(const std::filesystem::path& root, bool quiet);

}  // namespace cudaenv
