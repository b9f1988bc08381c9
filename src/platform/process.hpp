#pragma once
// Runs a child process with a given environment, captures its output and
// kills it when it runs past a timeout. Used by `check` (one child per pair,
// so a crash or a hang in a CUDA library cannot take cudaenv down) and by
// `doctor` (nvidia-smi, python).
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv::platform {

struct ProcessResult {
    bool started = false;      // false: the program could not be run (see error)
    std::string error;         // why it could not be started
    int exit_code = -1;        // when it exited normally
    bool timed_out = false;    // killed by us after the timeout
    int signal = 0;            // POSIX: the signal that ended it; Windows: 0
    std::string signal_name;   // "SIGSEGV", or on Windows an exception name ("access violation")
    std::string out, err;      // captured stdout and stderr (each capped at a few MiB)
    double seconds = 0;
};

// Runs argv (argv[0] is searched on PATH from `env` unless it holds a
// separator) with exactly `env` as its environment. stdin is empty.
ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& env,
                          std::chrono::milliseconds timeout);

// The absolute path of `name` found on the PATH list `path` (native
// separators; Windows also tries PATHEXT suffixes), or nullopt.
// An empty entry of the list is skipped, unless `empty_is_cwd` (execvp's and
// the shells' rule, for `cudaenv exec`): then it is the current folder.
std::optional<std::string> find_on_path(const std::string& name, const std::string& path, bool empty_is_cwd = false);

// The Python a user's `python` would be: python3, else python, on `path`.
std::optional<std::string> find_python(const std::string& path);
// The interpreters of a Python environment (a venv or conda prefix), relative
// to its folder, the first found wins: Scripts\python.exe or python.exe on
// Windows, bin/python3 or bin/python on POSIX.
std::vector<std::filesystem::path> environment_interpreters();

// (Asked of _WIN32 here: platform.hpp's files include this header.)
#ifdef _WIN32
// The name of the Python a kernel or script is started with by default:
// python.exe (python3.exe may be the Microsoft Store's stub); python3 on POSIX.
inline constexpr const char* python_program = "python.exe";
// Whether Python needs `setup --python`'s DLL hook to find a pair's libraries:
// from 3.8 on, Windows' Python searches an extension module's DLLs without
// PATH (docs/python.md); POSIX's loader reads LD_LIBRARY_PATH.
inline constexpr bool python_needs_dll_hook = true;
// Whether run_process may run several children at once. Not on Windows: it
// starts children with inheritable pipe handles, and a child started meanwhile
// would inherit another's and hold its output open (until it passes a handle list).
inline constexpr bool parallel_children = false;
#else
inline constexpr const char* python_program = "python3";
inline constexpr bool python_needs_dll_hook = false;
inline constexpr bool parallel_children = true;
#endif

}  // namespace cudaenv::platform
