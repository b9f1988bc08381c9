#include "store/system_store.hpp"

#include <algorithm>
#include <iostream>

#include "store/store_trust.hpp"
#include "platform/node.hpp"
#include "platform/trust.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

fs::path system_store_root() { return platform::system_store_root(); }

std::vector<std::string> store_problems(const fs::path& root) {
    auto r = platform::path_trust(root);
    auto parent = fsx::absolute_normal(root).parent_path();
    auto out = judge_root(root, r, parent, platform::path_trust(parent), platform::running_as_admin());
    for (const auto& p : {Store::toolkits_dir(root), Store::cudnn_dir(root), Store::config_file(root)}) {
        auto more = judge_path(p, platform::path_trust(p), r);
        out.insert(out.end(), more.begin(), more.end());
    }
    return out;
}

void attach_system_store(Store& user) {
    auto root = system_store_root();
    if (!fsx::is_dir(root)) return;
    std::error_code ec;
    if (fs::equivalent(root, user.root(), ec)) return;  // the admin's own store is the system store
    auto problems = store_problems(root);
    if (!usable_despite(problems)) {
        store_warning("leaving out the shared system store: " + problems.front());
        std::cerr << "hint: " << trust_hint() << "; your own pairs are unaffected\n";
        return;
    }
    user.layer_shared(std::make_unique<Store>(root));
}

void refuse_untrusted(const fs::path& folder, const fs::path& root) {
    auto problems = folder_problems(folder, root);
    if (!usable_despite(problems))
        throw Error("the shared system store does not take " + problems.front(),
                    "every user would run what is in it; " + trust_hint());
}

void refuse_shared_change(const ToolkitRecord* toolkit, const CudnnRecord* cudnn, const std::string& command) {
    std::string what;
    if (toolkit && toolkit->shared) what = "CUDA " + toolkit->version.str() + " (" + fsx::to_utf8(toolkit->path) + ")";
    else if (cudnn && cudnn->shared) what = "cuDNN " + cudnn->version.str() + " (" + fsx::to_utf8(cudnn->path) + ")";
    if (what.empty()) return;
    throw Error(what + " belongs to the shared system store '" + fsx::to_utf8(system_store_root()) +
                    "', which `cudaenv " + command + "` does not change",
                "its admin can: cudaenv " + command + " --system ...");
}

std::unique_ptr<ExclusiveLock> lock_system_store(const fs::path& root, bool quiet) {
    const std::string hint =
        "the shared system store is changed by its admin only (`--system`); without --system, cudaenv works in your "
        "own store";
    platform::keep_from_others();  // what the admin writes there (config.toml, installs) too
    try {
        platform::create_admin_dir(root);  // writable by its admin only, whatever the umask or inherited list
    } catch (const Error& e) {
        throw Error("cannot create the shared system store: " + std::string(e.what()), hint);
    }
    if (auto problems = store_problems(root); !usable_despite(problems))
        throw Error("the shared system store is not safe to write: " + problems.front(), trust_hint());
    try {
        return std::make_unique<ExclusiveLock>(Store::exclusive_lock_file(root), std::nullopt, quiet);
    } catch (const Error& e) {
        throw Error("the shared system store '" + fsx::to_utf8(root) + "' is not writable for you (" + e.what() + ")",
                    hint);
    }
}

}  // namespace cudaenv
