#include "core/system_store.hpp"

#include <algorithm>
#include <iostream>

#include "core/store_trust.hpp"
#include "platform/node.hpp"
#include "platform/trust.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

fs::path system_store_root() { return platform::system_store_root(); }

namespace {

void warn(const std::string& text) { std::cerr << "cudaenv: warning: " << str::visible(text) << "\n"; }

// Whether the store at `root` may be used: with no problem, or with
// CUDAENV_TRUST_SYSTEM_STORE=1 (then each problem is a warning every time).
// `problems` says why not.
bool usable(const std::vector<std::string>& problems) {
    if (problems.empty()) return true;
    if (!trust_overridden()) return false;
    for (const auto& p : problems)
        warn("using the shared system store although " + p + " (CUDAENV_TRUST_SYSTEM_STORE=1)");
    return true;
}

}  // namespace

void attach_system_store(Store& user) {
    auto root = system_store_root();
    if (!fsx::is_dir(root)) return;
    std::error_code ec;
    if (fs::equivalent(root, user.root(), ec)) return;  // the admin's own store is the system store
    auto problems = store_problems(root);
    if (!usable(problems)) {
        warn("leaving out the shared system store: " + problems.front());
        std::cerr << "hint: " << trust_hint() << "; your own pairs are unaffected\n";
        return;
    }
    user.layer_shared(std::make_unique<Store>(root));
}

void refuse_untrusted(const fs::path& folder, const fs::path& root) {
    auto problems = folder_problems(folder, root);
    if (!usable(problems))
        throw Error("the shared system store does not take " + problems.front(),
                    "every user would run what is in it; " + trust_hint());
}

namespace {

// Runs `f` on the shared store; a corrupt shared config.toml is reported once
// and the shared store left out.
template <class F>
void with_shared(Store& shared, F&& f) {
    static bool warned = false;
    try {
        shared.config();
    } catch (const Error& e) {
        if (!warned) {
            warn(std::string("leaving out the shared system store: ") + e.what());
            std::cerr << "hint: its admin must fix that file (cudaenv has not changed it); your own pairs are "
                         "unaffected\n";
        }
        warned = true;
        return;
    }
    f();
}

bool same_folder(const fs::path& a, const fs::path& b) {
    return fsx::absolute_normal(a) == fsx::absolute_normal(b);
}

// A shared toolkit or cuDNN that someone else could change is left out (once
// said per run); a missing one is listed, and `use` says it has gone.
template <class Record>
bool trusted(const Record& r, const platform::PathTrust& root) {
    auto problems = judge_path(r.path, platform::path_trust(r.path), root);
    if (problems.empty()) return true;
    static std::vector<fs::path> said;
    if (std::find(said.begin(), said.end(), r.path) != said.end()) return trust_overridden();
    said.push_back(r.path);
    if (usable(problems)) return true;
    warn("leaving out " + fsx::to_utf8(r.path) + " of the shared system store: " + problems.front());
    return false;
}

}  // namespace

void append_shared(Store& shared, std::vector<ToolkitRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        auto root = platform::path_trust(shared.root());
        for (auto r : shared.toolkits()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path);
            if (dup || !trusted(r, root)) continue;
            r.shared = true;
            out.push_back(std::move(r));
        }
    });
}

void append_shared(Store& shared, std::vector<CudnnRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        auto root = platform::path_trust(shared.root());
        for (auto r : shared.cudnns()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path) && out[i].variant == r.variant;
            if (dup || !trusted(r, root)) continue;
            r.shared = true;
            out.push_back(std::move(r));
        }
    });
}

std::optional<std::string> shared_pin(Store& user, const std::string& toolkit_version) {
    std::optional<std::string> out;
    if (auto* shared = user.shared())
        with_shared(*shared, [&] {
            auto& pins = shared->config().pins;
            if (auto it = pins.find(toolkit_version); it != pins.end()) out = it->second;
        });
    return out;
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
    if (auto problems = store_problems(root); !usable(problems))
        throw Error("the shared system store is not safe to write: " + problems.front(), trust_hint());
    try {
        return std::make_unique<ExclusiveLock>(root / "store.lock", std::nullopt, quiet);
    } catch (const Error& e) {
        throw Error("the shared system store '" + fsx::to_utf8(root) + "' is not writable for you (" + e.what() + ")",
                    hint);
    }
}

}  // namespace cudaenv
