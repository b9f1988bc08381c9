#pragma once
// What every command gets: the store, the current folder, the environment,
// and helpers shared by use/env/exec/which.
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "store/excl_lock.hpp"
#include "core/pairs.hpp"
#include "core/resolve.hpp"
#include "store/store.hpp"

namespace CLI {
class App;
}

namespace cudaenv {

class Shell;
struct CommandRow;  // commands/command_table.hpp

class Context {
public:
    Context();
    Store& store();
    // Makes `s` the store every later call works on (`--system`: the shared system store).
    void replace_store(std::unique_ptr<Store> s) { store_ = std::move(s); }
    const std::filesystem::path& cwd() const { return cwd_; }
    EnvReader env() const;
    int exit_code = 0;
    // The running program's command table (app.cpp sets it): `__complete`
    // answers from the commands this program defines.
    std::span<const CommandRow> commands;

    // The active spec and where it came from.
    ActiveSpec active();
    // The pair a spec names, with its folders read from disk; nullopt for system.
    std::optional<DetectedPair> pair_for(const Spec& spec, std::string* full_spec = nullptr);
    // What activating `spec_text` changes in this process's environment
    // (`msvc`: with a Visual Studio toolset, store/msvc).
    Activation plan_for(const std::string& spec_text, bool msvc = false);
    // Whether config.toml says msvc = "auto" (Windows only: `use` and the hook enter a toolset).
    bool msvc_auto();
    // Writes cudaenv.ps1 / cudaenv.cmd into <store>/shims when they are missing or stale.
    void refresh_session_shims();

private:
    std::filesystem::path cwd_;
    std::unique_ptr<Store> store_;
};

// The shell that evaluates `use`/`deactivate` output (CUDAENV_SHELL, set by
// the integration); throws a clear error with set-up hints when there is none.
std::unique_ptr<Shell> integration_shell(const std::string& command);

// --system on install, add, uninstall, check, pair (commands/system_option.cpp):
// adds the flag; enter_system_store() then makes ctx.store() the shared system
// store, locked for writing for as long as the returned lock lives.
void add_system_flag(CLI::App* cmd, bool& flag);
std::unique_ptr<ExclusiveLock> enter_system_store(Context& ctx, bool quiet);

}  // namespace cudaenv
