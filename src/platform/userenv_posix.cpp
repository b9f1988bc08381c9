#include <unistd.h>

#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace {
[[noreturn]] void windows_only(const std::string& what) {
    throw Error(what + " exists only on Windows", "on this system `cudaenv setup` edits the shell profile instead");
}
}  // namespace

std::optional<UserEnvValue> user_env_read(const std::string&) { return std::nullopt; }
void user_env_write(const std::string&, const UserEnvValue&) { windows_only("the user environment (HKCU\\Environment)"); }
void user_env_remove(const std::string&) { windows_only("the user environment (HKCU\\Environment)"); }
void broadcast_environment_change() {}

std::optional<UserEnvValue> cmd_autorun_read() { return std::nullopt; }
void cmd_autorun_write(const std::optional<UserEnvValue>&) { windows_only("cmd's AutoRun"); }
bool cmd_processor_key_exists() { return false; }
void cmd_processor_key_remove_if_empty() {}

std::filesystem::path documents_dir() { return home_dir() / "Documents"; }

std::optional<std::string> parent_process_name() {
    auto comm = fsx::read_file("/proc/" + std::to_string(::getppid()) + "/comm", 4096);
    if (!comm) return std::nullopt;
    auto name = std::string(str::trim(*comm));
    if (name.empty()) return std::nullopt;
    return name;
}

}  // namespace cudaenv::platform
