#pragma once
// The only place that knows Windows from POSIX. Everything here speaks UTF-8;
// the _win32.cpp file converts to and from UTF-16 at the boundary.
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudaenv::platform {

namespace fs = std::filesystem;

// The OS and CPU this build is for, as values. Outside platform/ they are
// handed on, never tested: to the tables that name them (NVIDIA's platforms,
// Jupyter's folders, the frameworks' builds) and, `is_windows`, to the pure
// functions that take the OS as an argument so that their tests cover every OS
// (nvidia/driver_support, core/cudalibs, shell/profile_lines, ...). A question
// whose answer differs between the OSes is asked of platform/ by name (below;
// process.hpp, trust.hpp, userenv.hpp, nvidia_driver.hpp): tests/lint/lint_platform.py
// refuses `is_windows` tested and `_WIN32` anywhere else.
enum class Os { linux, macos, windows };
#if defined(_WIN32)
inline constexpr Os host_os = Os::windows;
#elif defined(__APPLE__)
inline constexpr Os host_os = Os::macos;
#else
inline constexpr Os host_os = Os::linux;
#endif
inline constexpr bool is_windows = host_os == Os::windows;
// "linux", "macos", "windows" (the frameworks' table and `--for --os`).
constexpr const char* os_name(Os os) {
    return os == Os::windows ? "windows" : os == Os::macos ? "macos" : "linux";
}
// The CPU as `uname -m` names it.
#if defined(__aarch64__) || defined(_M_ARM64)
inline constexpr std::string_view cpu_name = "aarch64";
#else
inline constexpr std::string_view cpu_name = "x86_64";
#endif

// The characters that end a folder's name in a path: "/\\" on Windows.
inline constexpr std::string_view path_separators = is_windows ? "/\\" : "/";
// A path or file name as the OS compares names: Windows' file systems ignore
// case (folded here for ASCII, as every name cudaenv compares so is).
std::string path_key(std::string_view path);
// Whether a running program's file stays locked: Windows cannot replace or
// delete it until the program exits; POSIX replaces the name under it.
inline constexpr bool running_programs_locked = is_windows;
// Whether Visual Studio's toolsets are nvcc's host compiler (Windows: cl.exe
// from a toolset, `use --msvc`, store/msvc), rather than the c++ on PATH.
inline constexpr bool has_msvc_toolsets = is_windows;
// Whether a program's libraries are found through PATH (Windows' DLL search),
// rather than LD_LIBRARY_PATH and the loader's cache.
inline constexpr bool dlls_on_path = is_windows;
// Whether PowerShell enforces an execution policy (Windows only: elsewhere it
// is Unrestricted and cannot be changed), which may refuse to run a profile.
inline constexpr bool has_execution_policy = is_windows;
// The file that holds the running Linux kernel's release (WSL's says
// "microsoft"); nullptr where this is not a Linux program.
inline constexpr const char* kernel_release_file = is_windows ? nullptr : "/proc/sys/kernel/osrelease";

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
// The variables a user sets to move the store (CUDAENV_ROOT; XDG_DATA_HOME on
// POSIX), which a program started from elsewhere (Jupyter) may not be given.
std::vector<std::string> store_root_variables();
// Folders where the OS keeps its own shared libraries (never edited by cudaenv):
// /usr/lib/x86_64-linux-gnu, ... on Linux; System32 on Windows.
std::vector<fs::path> system_library_dirs();
// Those and the other folders the whole system shares (/usr on POSIX): a
// library found right in one belongs to no pair's folder.
std::vector<fs::path> system_shared_dirs();
// A path as its user writes it: ~/... below the home folder on POSIX.
std::string shown_path(const fs::path& p);
// The shell the user logs in with, when the OS says ($SHELL on POSIX; nullopt
// on Windows, where a Git Bash or MSYS program may have set SHELL for itself).
std::optional<std::string> login_shell();
// The UTC calendar time of `t` (gmtime_r, gmtime_s).
std::tm utc_time(std::time_t t);

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
