#pragma once
// The only place that knows Windows from POSIX. Everything here speaks UTF-8;
// the _win32.cpp file converts to and from UTF-16 at the boundary.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv::platform {

namespace fs = std::filesystem;

#ifdef _WIN32
inline constexpr bool is_windows = true;
#else
inline constexpr bool is_windows = false;
#endif

// Process start: UTF-8 arguments (Windows: from GetCommandLineW) and a
// console that prints UTF-8.
std::vector<std::string> utf8_args(int argc, char** argv);
void init_console();

std::optional<std::string> get_env(const std::string& name);
void set_env(const std::string& name, const std::string& value);
void unset_env(const std::string& name);
// Every variable of this process, in the order the OS gives them.
std::vector<std::pair<std::string, std::string>> environment();

fs::path current_dir();
fs::path executable_path();
// A path whose stat tells this program's own file (POSIX: /proc/self/exe,
// which stat follows, so no readlink), to tell one build from another.
fs::path executable_stat_path();
fs::path home_dir();
// $CUDAENV_ROOT, else %LOCALAPPDATA%\cudaenv, else ${XDG_DATA_HOME:-~/.local/share}/cudaenv.
fs::path default_store_root();
// Folders where the OS keeps its own shared libraries (never edited by cudaenv):
// /usr/lib/x86_64-linux-gnu, ... on Linux; System32 on Windows.
std::vector<fs::path> system_library_dirs();

bool stdout_is_terminal();
bool stderr_is_terminal();

// Runs argv[0] (searched on PATH from `env`) with exactly `env` as its
// environment. POSIX replaces this process; Windows waits and returns the
// child's exit code. A program that cannot be found or started is an Error
// whose exit code is what a shell answers (127 not found, 126 not runnable).
int exec_command(const std::vector<std::string>& argv,
                 const std::vector<std::pair<std::string, std::string>>& env);

// An executable file: mode +x on POSIX, a regular file on Windows.
bool is_executable(const fs::path& p);
void make_executable(const fs::path& p);

// "" on POSIX, ".exe" on Windows.
const char* exe_suffix();

}  // namespace cudaenv::platform
