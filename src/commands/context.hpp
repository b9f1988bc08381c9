#pragma once
// What every command gets: the store, the current folder, the environment,
// and helpers shared by use/env/exec/which.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "core/excl_lock.hpp"
#include "core/pairs.hpp"
#include "core/resolve.hpp"
#include "core/store.hpp"

namespace CLI {
class App;
}

namespace cudaenv {

class Shell;

class Context {
public:
    Context();
    Store& store();
    // Makes `s` the store every later call works on (`--system`: the shared system store).
    void replace_store(std::unique_ptr<Store> s) { store_ = std::move(s); }
    const std::filesystem::path& cwd() const { return cwd_; }
    EnvReader env() const;
    int exit_code = 0;

    // The active spec and where it came from.
    ActiveSpec active();
    // The pair a spec names, with its folders read from disk; nullopt for system.
    std::optional<DetectedPair> pair_for(const Spec& spec, std::string* full_spec = nullptr);
    // What activating `spec_text` changes in this process's environment.
    Activation plan_for(const std::string& spec_text);
    // Writes cudaenv.ps1 / cudaenv.cmd into <store>/shims when they are missing or stale.
    void refresh_session_shims();

private:
    std::filesystem::path cwd_;
    std::unique_ptr<Store> store_;
};

// The shell that evaluates `use`/`deactivate` output (CUDAENV_SHELL, set by
// the integration); throws a clear error with set-up hints when there is none.
std::unique_ptr<Shell> integration_shell(const std::string& command);

// One function per command file; each adds its subcommand to `app`.
void register_list(CLI::App& app, Context& ctx);
void register_current(CLI::App& app, Context& ctx);
void register_use(CLI::App& app, Context& ctx);
void register_deactivate(CLI::App& app, Context& ctx);
void register_local(CLI::App& app, Context& ctx);
void register_global(CLI::App& app, Context& ctx);
void register_env(CLI::App& app, Context& ctx);
void register_init(CLI::App& app, Context& ctx);
void register_exec(CLI::App& app, Context& ctx);
void register_which(CLI::App& app, Context& ctx);
void register_add(CLI::App& app, Context& ctx);
void register_discover(CLI::App& app, Context& ctx);
void register_pair(CLI::App& app, Context& ctx);
void register_completions(CLI::App& app, Context& ctx);
void register_hook_env(CLI::App& app, Context& ctx);
void register_rehash(CLI::App& app, Context& ctx);
void register_setup(CLI::App& app, Context& ctx);
// The real `install`, `lock`, `sync` and `mirror` live in the cudaenv-install
// program (src/main_install.cpp); the cudaenv executable registers
// forwarders that run it.
void register_install(CLI::App& app, Context& ctx);
void register_lock(CLI::App& app, Context& ctx);
void register_sync(CLI::App& app, Context& ctx);
void register_mirror(CLI::App& app, Context& ctx);
void register_install_forward(CLI::App& app, Context& ctx);
void register_lock_forward(CLI::App& app, Context& ctx);
void register_sync_forward(CLI::App& app, Context& ctx);
void register_mirror_forward(CLI::App& app, Context& ctx);
void register_uninstall(CLI::App& app, Context& ctx);
void register_check(CLI::App& app, Context& ctx);
// `__probe`, the child of `check`: only the cudaenv-probe program (src/main_probe.cpp).
void register_probe(CLI::App& app, Context& ctx);
void register_doctor(CLI::App& app, Context& ctx);
void register_export(CLI::App& app, Context& ctx);
void register_kernel(CLI::App& app, Context& ctx);

// --system on install, add, uninstall, check (commands/system_option.cpp):
// adds the flag; enter_system_store() then makes ctx.store() the shared system
// store, locked for writing for as long as the returned lock lives.
void add_system_flag(CLI::App* cmd, bool& flag);
std::unique_ptr<ExclusiveLock> enter_system_store(Context& ctx, bool quiet);
void register_trace(CLI::App& app, Context& ctx);
void register_inspect(CLI::App& app, Context& ctx);
// `__gpus`, the machine's GPUs and driver: only the cudaenv-probe program (check/probe_gpus).
void register_probe_gpus(CLI::App& app, Context& ctx);

// The names of all subcommands, for completion scripts.
std::vector<std::string> command_names(const CLI::App& app);

}  // namespace cudaenv
