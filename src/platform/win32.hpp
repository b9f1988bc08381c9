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

}  // namespace cudaenv::platform::win32
