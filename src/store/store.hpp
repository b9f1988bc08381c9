#pragma once
// The folder cudaenv owns ($CUDAENV_ROOT, %LOCALAPPDATA%\cudaenv, ~/.local/share/cudaenv):
//   config.toml            global default, pins, adopted folders
//   toolkits/<version>/    installed toolkits (by `cudaenv install`)
//   cudnn/<version>_cuda<N>/ installed cuDNNs
//   shims/                 session shims (cudaenv.ps1, cudaenv.cmd) and tool shims
//   cache/, tmp/           downloads and staging for installs
//   checks.toml            the last `cudaenv check` result per pair (store/checks.hpp)
//   checks/<host>-<id>.json  the last result per pair on each node (store/node_checks.hpp)
//   config.lock            held while a store file is read, changed and written
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/inventory.hpp"
#include "core/version.hpp"
#include "store/config.hpp"

namespace cudaenv::platform {
class FileLock;
}

namespace cudaenv {

namespace fs = std::filesystem;

class Store : public Inventory {
public:
    explicit Store(fs::path root);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    const fs::path& root() const { return root_; }
    // Each path also given for a bare root, for the callers that have no Store
    // (the system store's trust, its lock, the caches below).
    static fs::path config_file(const fs::path& root) { return root / "config.toml"; }
    fs::path config_file() const { return config_file(root_); }
    static fs::path toolkits_dir(const fs::path& root) { return root / "toolkits"; }
    fs::path toolkits_dir() const { return toolkits_dir(root_); }
    static fs::path cudnn_dir(const fs::path& root) { return root / "cudnn"; }
    fs::path cudnn_dir() const { return cudnn_dir(root_); }
    fs::path shims_dir() const { return root_ / "shims"; }
    fs::path cache_dir() const { return root_ / "cache"; }
    fs::path tmp_dir() const { return root_ / "tmp"; }
    // Held by an install, sync or uninstall for the trees it changes (install/staging.hpp).
    fs::path install_lock_file() const { return tmp_dir() / "install.lock"; }
    // Held by check's child while it times the GPU: one timing at a time (check/runner).
    fs::path check_gpu_lock_file() const { return tmp_dir() / "check-gpu.lock"; }
    // Held (shared) by check's child until it has timed: none ends, freeing
    // the GPU, while another times (check/probe).
    fs::path check_timing_lock_file() const { return tmp_dir() / "check-timing.lock"; }
    fs::path checks_file() const { return root_ / "checks.toml"; }
    // checks/<host>-<id>.json: the last result per pair on each node (store/node_checks.hpp).
    fs::path node_checks_dir() const { return root_ / "checks"; }
    // What `cudaenv setup` changed (setup/setup_record.hpp).
    fs::path setup_file() const { return root_ / "setup.toml"; }
    // The files in cache/ (ARCHITECTURE.md "Store"). Those with a root
    // argument serve the callers that are given the store's folder only.
    fs::path config_cache_file() const { return cache_dir() / "config.txt"; }
    fs::path activation_cache_file() const { return cache_dir() / "activations.txt"; }
    fs::path detection_cache_file() const { return detection_cache_file(root_); }
    static fs::path detection_cache_file(const fs::path& root) { return root / "cache" / "detected.txt"; }
    static fs::path host_compiler_cache_file(const fs::path& root) { return root / "cache" / "host_compiler.txt"; }
    static fs::path gpu_code_cache_file(const fs::path& root) { return root / "cache" / "gpucode.txt"; }
    static fs::path machine_cache_file(const fs::path& root) { return root / "cache" / "machine.txt"; }
    // Visual Studio's toolsets and the environment each gives (store/msvc).
    fs::path msvc_cache_file() const { return cache_dir() / "msvc.txt"; }
    fs::path conv_choice_file() const { return cache_dir() / "conv_choice.txt"; }
    // Not "store.lock": that name is the system store's O_EXCL lock (store/excl_lock).
    fs::path lock_file() const { return root_ / "config.lock"; }
    // The system store's O_EXCL lock, held while its admin writes (`--system`, store/system_store).
    static fs::path exclusive_lock_file(const fs::path& root) { return root / "store.lock"; }

    // Loaded on first use; throws on a corrupt file.
    Config& config();
    // The text config() was parsed from ("" when there is no config.toml);
    // nullptr before config() and once the lock has read it again.
    const std::string* config_source() const { return config_source_ ? &*config_source_ : nullptr; }
    // Writes config.toml atomically and durably. Only under lock(), so that
    // what is written is what was read plus this process's change (throws
    // std::logic_error otherwise: a lost-update bug in the caller).
    void save_config();

    // Every read-modify-write of a store file (config.toml, checks.toml,
    // setup.toml) happens while a WriteLock is alive: a cross-process lock on
    // store.lock (waited for; other writers hold it for milliseconds, never
    // across a download). Taking it creates the store and re-reads
    // config.toml in place, so a Config& taken before stays valid and sees
    // what other processes wrote. Nested locks of one Store are free.
    class WriteLock {
    public:
        explicit WriteLock(Store& s);
        ~WriteLock();
        WriteLock(const WriteLock&) = delete;
        WriteLock& operator=(const WriteLock&) = delete;

    private:
        Store& store_;
    };
    [[nodiscard]] WriteLock lock() { return WriteLock(*this); }
    bool locked() const { return lock_depth_ > 0; }

    // Newest first. External folders come from config.toml, managed ones
    // from the store's own folders (named by version).
    std::vector<ToolkitRecord> toolkits() override;
    std::vector<CudnnRecord> cudnns() override;
    // The user's pin for this toolkit version, else the shared system store
    // admin's (store/system_store.hpp shared_pin).
    std::optional<std::string> pin(const std::string& toolkit_version) override;

    // Where a managed install of this version lives.
    fs::path managed_toolkit_path(const Version& v) const;
    fs::path managed_cudnn_path(const Version& v, int cuda_major) const;

    // The last check result of the pair of these folders ("pass: ...",
    // "fail: ..."), if any; cudnn_path is empty for a pair without cuDNN.
    std::optional<std::string> last_check(const std::string& pair_spec, const std::string& toolkit_path,
                                          const std::string& cudnn_path);

    // The shared system store layered under this one (store/system_store.hpp):
    // its toolkits and cuDNNs are listed after this store's, marked shared.
    void layer_shared(std::unique_ptr<Store> lower) { shared_ = std::move(lower); }
    Store* shared() const { return shared_.get(); }

private:
    fs::path root_;
    std::optional<Config> config_;
    std::optional<std::string> config_source_;
    std::unique_ptr<Store> shared_;
    std::unique_ptr<platform::FileLock> lock_;
    int lock_depth_ = 0;

    // Throws a clear error when the root exists but is not a folder.
    void check_root() const;
};

// Creates the store folder, or throws a clear error when it cannot.
void ensure_writable_dir(const fs::path& dir);

}  // namespace cudaenv
