#include "core/system_store.hpp"

#include <iostream>

#include "platform/node.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

fs::path system_store_root() { return platform::system_store_root(); }

void attach_system_store(Store& user) {
    auto root = system_store_root();
    if (!fsx::is_dir(root)) return;
    std::error_code ec;
    if (fs::equivalent(root, user.root(), ec)) return;  // the admin's own store is the system store
    user.layer_shared(std::make_unique<Store>(root));
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
        if (!warned)
            std::cerr << "cudaenv: warning: leaving out the shared system store: " << e.what()
                      << "\nhint: its admin must fix that file (cudaenv has not changed it); your own pairs are "
                         "unaffected\n";
        warned = true;
        return;
    }
    f();
}

bool same_folder(const fs::path& a, const fs::path& b) {
    return fsx::absolute_normal(a) == fsx::absolute_normal(b);
}

}  // namespace

void append_shared(Store& shared, std::vector<ToolkitRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        for (auto r : shared.toolkits()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path);
            if (dup) continue;
            r.shared = true;
            out.push_back(std::move(r));
        }
    });
}

void append_shared(Store& shared, std::vector<CudnnRecord>& out) {
    with_shared(shared, [&] {
        auto mine = out.size();
        for (auto r : shared.cudnns()) {
            bool dup = false;
            for (size_t i = 0; i < mine && !dup; ++i) dup = same_folder(out[i].path, r.path) && out[i].variant == r.variant;
            if (dup) continue;
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
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec || !fsx::is_dir(root))
        throw Error("cannot create the shared system store '" + fsx::to_utf8(root) + "': " +
                        (ec ? ec.message() : "not a folder"),
                    hint);
    try {
        return std::make_unique<ExclusiveLock>(root / "store.lock", std::nullopt, quiet);
    } catch (const Error& e) {
        throw Error("the shared system store '" + fsx::to_utf8(root) + "' is not writable for you (" + e.what() + ")",
                    hint);
    }
}

}  // namespace cudaenv
