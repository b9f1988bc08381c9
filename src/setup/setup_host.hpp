#pragma once
// What `cudaenv setup` reads and changes outside the store: profile files and,
// on Windows, the user's registry (HKCU only). Behind one small interface so
// that the rules in setup/setup_actions are unit-tested against an in-memory
// host (tests/unit/setup/setup_actions_test.cpp) and run against the real files and
// registry here (make_real_setup_host).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "platform/userenv.hpp"

namespace cudaenv {

class SetupHost {
public:
    virtual ~SetupHost() = default;

    enum class Kind { absent, file, dangling_link, other };
    struct FileState {
        Kind kind = Kind::absent;
        bool read_only = false;         // no write permission for its owner (root too), or Windows' read-only attribute
        std::filesystem::path target;   // the file itself, or where its link (chain) leads
    };
    virtual FileState inspect(const std::filesystem::path& path) = 0;
    // The bytes of an existing file; throws Error when it cannot be read.
    virtual std::string read(const std::filesystem::path& file) = 0;
    // New content for an existing regular file (never a link: the caller
    // passes the link's target). Keeps its permissions and its other hard links.
    virtual void rewrite(const std::filesystem::path& file, std::string_view text) = 0;
    // A new file in an existing folder.
    virtual void create(const std::filesystem::path& file, std::string_view text) = 0;
    virtual void remove_file(const std::filesystem::path& file) = 0;
    // Copies a file's bytes (over `to` when it exists).
    virtual void copy_file(const std::filesystem::path& from, const std::filesystem::path& to) = 0;
    virtual bool dir_exists(const std::filesystem::path& dir) = 0;
    virtual void create_dir(const std::filesystem::path& dir) = 0;
    // Removes `dir` when it holds nothing (what the user put there stays).
    virtual void remove_dir_if_empty(const std::filesystem::path& dir) = 0;
    // How a path is shown to the user (~/.bashrc).
    virtual std::string show(const std::filesystem::path& path) = 0;

    // HKCU\Environment, cmd's AutoRun, WM_SETTINGCHANGE (platform/userenv.hpp).
    virtual std::optional<platform::UserEnvValue> user_env_read(const std::string& name) = 0;
    virtual void user_env_write(const std::string& name, const platform::UserEnvValue& value) = 0;
    virtual void user_env_remove(const std::string& name) = 0;
    virtual void broadcast_environment_change() = 0;
    virtual std::optional<platform::UserEnvValue> autorun_read() = 0;
    virtual void autorun_write(const std::optional<platform::UserEnvValue>& value) = 0;
    virtual bool cmd_key_exists() = 0;
    virtual void cmd_key_remove_if_empty() = 0;
};

// The files of this machine and, on Windows, its registry.
std::unique_ptr<SetupHost> make_real_setup_host();

}  // namespace cudaenv
