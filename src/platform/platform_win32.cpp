#include "platform/platform.hpp"
#include "platform/exit.hpp"
#include "platform/stamp.hpp"
#include "platform/win32.hpp"
#include "platform/win_cmdline.hpp"

#include <windows.h>
#include <shellapi.h>
#include <io.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cwctype>
#include <iostream>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

using win32::widen;

static std::string narrow(const wchar_t* w, size_t len) {
    if (len == 0) return {};
    int n = WideCharToMultiByte(CP_UTF8, 0, w, static_cast<int>(len), nullptr, 0, nullptr, nullptr);
    std::string s(static_cast<size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w, static_cast<int>(len), s.data(), n, nullptr, nullptr);
    return s;
}

std::vector<std::string> utf8_args(int, char**) {
    int argc = 0;
    LPWSTR* wargv = CommandLineToArgvW(GetCommandLineW(), &argc);
    std::vector<std::string> out;
    for (int i = 0; i < argc; ++i) out.push_back(narrow(wargv[i], wcslen(wargv[i])));
    LocalFree(wargv);
    return out;
}

namespace {
// The console's code pages belong to the console, which the calling shell
// shares: put them back when this process ends.
UINT saved_output_cp = 0, saved_input_cp = 0;
void restore_console() {
    if (saved_output_cp) SetConsoleOutputCP(saved_output_cp);
    if (saved_input_cp) SetConsoleCP(saved_input_cp);
}
}  // namespace

void init_console() {
    // Only when there is a console: under a pipe GetConsoleOutputCP answers 0.
    saved_output_cp = GetConsoleOutputCP();
    saved_input_cp = GetConsoleCP();
    if (!saved_output_cp) return;
    SetConsoleOutputCP(CP_UTF8);
    SetConsoleCP(CP_UTF8);
    std::atexit(restore_console);
}

void exit_process(int status) { std::exit(status); }  // runs restore_console

std::optional<std::string> get_env(const std::string& name) {
    auto wname = widen(name);
    std::wstring buf(256, L'\0');
    for (;;) {
        // An empty variable also answers 0; only the error code tells it from an unset one.
        SetLastError(ERROR_SUCCESS);
        DWORD n = GetEnvironmentVariableW(wname.c_str(), buf.data(), static_cast<DWORD>(buf.size()));
        if (n == 0) {
            if (GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
            return std::string();
        }
        if (n < buf.size()) return narrow(buf.data(), n);
        buf.resize(n);  // too small: n is the size needed, with the terminator
    }
}

void set_env(const std::string& name, const std::string& value) {
    SetEnvironmentVariableW(widen(name).c_str(), widen(value).c_str());
}

void unset_env(const std::string& name) { SetEnvironmentVariableW(widen(name).c_str(), nullptr); }

std::vector<std::pair<std::string, std::string>> environment() {
    std::vector<std::pair<std::string, std::string>> out;
    LPWCH block = GetEnvironmentStringsW();
    for (LPWCH p = block; p && *p; p += wcslen(p) + 1) {
        std::string kv = narrow(p, wcslen(p));
        // Entries such as "=C:=C:\dir" (cmd's per-drive folders) start with '=': not variables.
        if (kv.empty() || kv[0] == '=') continue;
        auto eq = kv.find('=');
        if (eq == std::string::npos) continue;
        out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
    }
    FreeEnvironmentStringsW(block);
    return out;
}

fs::path current_dir() {
    std::error_code ec;
    return fs::current_path(ec);
}

fs::path executable_path() {
    std::wstring buf(32768, L'\0');
    DWORD n = GetModuleFileNameW(nullptr, buf.data(), static_cast<DWORD>(buf.size()));
    buf.resize(n < buf.size() ? n : 0);
    return fs::path(buf);
}

fs::path executable_stat_path() { return executable_path(); }

fs::path home_dir() {
    if (auto h = get_env("USERPROFILE"); h && !h->empty()) return fsx::from_utf8(*h);
    return "C:\\";
}

fs::path default_store_root() {
    if (auto r = get_env("CUDAENV_ROOT"); r && !r->empty()) return fsx::absolute_normal(fsx::from_utf8(*r));
    if (auto l = get_env("LOCALAPPDATA"); l && !l->empty()) return fsx::from_utf8(*l) / "cudaenv";
    return home_dir() / "AppData" / "Local" / "cudaenv";
}

// %LOCALAPPDATA% is where every Windows program looks: only CUDAENV_ROOT moves the store.
std::vector<std::string> store_root_variables() { return {"CUDAENV_ROOT"}; }

std::string path_key(std::string_view path) { return str::to_lower_ascii(path); }

std::string shown_path(const fs::path& p) { return fsx::to_utf8(p); }

std::optional<std::string> login_shell() { return std::nullopt; }

std::tm utc_time(std::time_t t) {
    std::tm tm{};
    gmtime_s(&tm, &t);
    return tm;
}

std::vector<fs::path> system_library_dirs() {
    wchar_t buf[MAX_PATH];
    UINT n = GetSystemDirectoryW(buf, MAX_PATH);
    if (n == 0 || n >= MAX_PATH) return {fs::path(L"C:\\Windows\\System32")};
    return {fs::path(std::wstring(buf, n))};
}

std::vector<fs::path> system_shared_dirs() { return system_library_dirs(); }

bool stdout_is_terminal() { return _isatty(_fileno(stdout)) != 0; }
bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

namespace win32 {

std::wstring upper(std::wstring s) {
    CharUpperBuffW(s.data(), static_cast<DWORD>(s.size()));
    return s;
}

std::optional<std::wstring> search_program(const std::wstring& name, const std::wstring& path) {
    std::vector<wchar_t> found(32768);
    for (const wchar_t* ext : {L".exe", L".com"}) {
        DWORD n = SearchPathW(path.empty() ? L"." : path.c_str(), name.c_str(), ext, static_cast<DWORD>(found.size()),
                              found.data(), nullptr);
        if (n > 0 && n < found.size()) return std::wstring(found.data(), n);
    }
    return std::nullopt;
}

std::optional<std::wstring> find_program(const std::wstring& name, const std::wstring& path) {
    if (name.find_first_of(L"\\/:") != std::wstring::npos)
        return GetFileAttributesW(name.c_str()) == INVALID_FILE_ATTRIBUTES ? std::nullopt : std::optional(name);
    return search_program(name, path);
}

std::wstring widen(const std::string& s) {
    if (s.empty()) return {};
    int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

std::string narrow(const std::wstring& w) {
    if (w.empty()) return {};
    int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
    std::string s(static_cast<size_t>(n), '\0');
    WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr, nullptr);
    return s;
}

std::string exception_name(unsigned long code) {
    switch (code) {
        case 0xC0000005: return "access violation (0xC0000005)";
        case 0xC0000135: return "a DLL was not found (0xC0000135)";
        case 0xC0000139: return "entry point not found (0xC0000139)";
        case 0xC0000409: return "stack buffer overrun (0xC0000409)";
        case 0xC00000FD: return "stack overflow (0xC00000FD)";
        default: return {};
    }
}

}  // namespace win32


int exec_command(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env) {
    std::wstring cmdline = windows_command_line(argv), path;
    std::wstring block = windows_env_block(env, win32::upper, &path);
    auto program = win32::find_program(widen(argv.at(0)), path);
    if (!program) throw Error("command not found: " + argv[0], "", 127);
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    if (!CreateProcessW(program->c_str(), cmdline.data(), nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT,
                        block.data(), nullptr, &si, &pi)) {
        DWORD code = GetLastError();
        throw Error("cannot run '" + argv[0] + "' (Windows error " + std::to_string(code) + ")", "",
                    code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND ? 127 : 126);
    }
    // Ctrl+C reaches the child (same console); this process waits for it.
    SetConsoleCtrlHandler(nullptr, TRUE);
    WaitForSingleObject(pi.hProcess, INFINITE);
    SetConsoleCtrlHandler(nullptr, FALSE);
    DWORD code = 1;
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return static_cast<int>(code);
}

bool is_executable(const fs::path& p) { return fsx::is_file(p); }

std::optional<FileStamp> file_stamp(const fs::path& p) {
    // Opened for no access at all (a folder needs FILE_FLAG_BACKUP_SEMANTICS):
    // the file index and ChangeTime are only had from a handle.
    HANDLE h = CreateFileW(p.c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
    if (h == INVALID_HANDLE_VALUE) return std::nullopt;
    BY_HANDLE_FILE_INFORMATION info{};
    FILE_BASIC_INFO basic{};
    bool ok = GetFileInformationByHandle(h, &info) &&
              GetFileInformationByHandleEx(h, FileBasicInfo, &basic, sizeof basic);
    CloseHandle(h);
    if (!ok) return std::nullopt;
    // 100 ns units since 1601: only compared for equality, so no epoch shift.
    auto t = (static_cast<unsigned long long>(info.ftLastWriteTime.dwHighDateTime) << 32) |
             info.ftLastWriteTime.dwLowDateTime;
    auto size = (static_cast<unsigned long long>(info.nFileSizeHigh) << 32) | info.nFileSizeLow;
    auto index = (static_cast<unsigned long long>(info.nFileIndexHigh) << 32) | info.nFileIndexLow;
    return FileStamp{static_cast<long long>(t) * 100, static_cast<long long>(basic.ChangeTime.QuadPart) * 100,
                     index ^ (static_cast<unsigned long long>(info.dwVolumeSerialNumber) << 32), size,
                     (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0};
}

std::optional<FileStamp> file_stamp(const std::string& utf8) { return file_stamp(fsx::from_utf8(utf8)); }

void make_executable(const fs::path&) {}

const char* exe_suffix() { return ".exe"; }

}  // namespace cudaenv::platform
