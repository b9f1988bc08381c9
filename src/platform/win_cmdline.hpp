#pragma once
// How a Windows process is handed its arguments and environment: one command
// line that the program's C runtime splits back into argv (the rules of
// CommandLineToArgvW and the MSVC runtime), and one block of NAME=value
// strings sorted by name. Pure functions, compiled on every OS so the Linux
// unit tests cover them; process_win32, platform_win32 and tracer_win32 use them.
#include <string>
#include <utility>
#include <vector>

namespace cudaenv::platform {

// `arg` as one argument that the child reads back unchanged: as it is when it
// has no blank or quote, else in quotes with backslashes doubled before a quote.
std::wstring quote_windows_arg(const std::wstring& arg);
// The arguments (UTF-8), each quoted, joined by single spaces.
std::wstring windows_command_line(const std::vector<std::string>& argv);

// CreateProcessW's environment block from UTF-8 pairs: each NAME=value ended by a NUL, sorted by
// the names as `upper` upper-cases them (Windows compares names that way, with
// CharUpperBuffW), the block ended by one more NUL. `path` (when given) gets the
// value of PATH in any case of its name, "" without one.
std::wstring windows_env_block(const std::vector<std::pair<std::string, std::string>>& env,
                               std::wstring (*upper)(std::wstring), std::wstring* path = nullptr);

}  // namespace cudaenv::platform
