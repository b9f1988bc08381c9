#pragma once
// What the *_win32.cpp files share (Windows only; defined in platform_win32.cpp).
#include <optional>
#include <string>

namespace cudaenv::platform::win32 {

// `s` upper-cased as Windows compares environment variable names (CharUpperBuffW).
std::wstring upper(std::wstring s);
// `name` (no folder in it) searched on `path` as CreateProcess would run it:
// with .exe, then .com, appended when it has no extension.
std::optional<std::wstring> search_program(const std::wstring& name, const std::wstring& path);
// argv[0] as CreateProcess gets it: a name with a folder in it, when that
// file exists; else `name` searched on `path` (the child's PATH, not ours).
std::optional<std::wstring> find_program(const std::wstring& name, const std::wstring& path);
// UTF-8 as Windows' UTF-16, and back.
std::wstring widen(const std::string& s);
std::string narrow(const std::wstring& w);
// The exception status a crashed program exits with, in words ("access
// violation (0xC0000005)"); "" for any other exit code.
std::string exception_name(unsigned long code);

}  // namespace cudaenv::platform::win32
