#include "platform/platform.hpp"

#include <windows.h>
#include <shellapi.h>
#include <io.h>

#include <cstdio>
#include <iostream>

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

static std::wstring widen(const std::string& s) {
    if (s.empty()) return {};
    int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
    std::wstring w(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
    return w;
}

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

void init_console() {
    SetConsoleOutputCP(CP_UTF8);
    SetConsoleCP(CP_UTF8);
}

std::optional<std::string> get_env(const std::string& name) {
    auto wname = widen(name);
    DWORD n = GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
    if (n == 0) {
        if (GetLastError() == ERROR_ENVVAR_NOT_FOUND) return std::nullopt;
        return std::string();
    }
    std::wstring buf(n, L'\0');
    DWORD got = GetEnvironmentVariableW(wname.c_str(), buf.data(), n);
    return narrow(buf.data(), got);
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
        // Entries such as "=C:=C:\dir" (per-drive folders) start with '='.
        auto eq = kv.find('=', 1);
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
    buf.resize(n);
    return fs::path(buf);
}

fs::path home_dir() {
    if (auto h = get_env("USERPROFILE"); h && !h->empty()) return fsx::from_utf8(*h);
    return "C:\\";
}

fs::path default_store_root() {
    if (auto r = get_env("CUDAENV_ROOT"); r && !r->empty()) return fsx::absolute_normal(fsx::from_utf8(*r));
    if (auto l = get_env("LOCALAPPDATA"); l && !l->empty()) return fsx::from_utf8(*l) / "cudaenv";
    return home_dir() / "AppData" / "Local" / "cudaenv";
}

std::vector<fs::path> system_library_dirs() {
    wchar_t buf[MAX_PATH];
    UINT n = GetSystemDirectoryW(buf, MAX_PATH);
    return {fs::path(std::wstring(buf, n))};
}

bool stdout_is_terminal() { return _isatty(_fileno(stdout)) != 0; }
bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

// Quotes one argument the way CommandLineToArgvW / the MSVC runtime read it.
static std::wstring quote_arg(const std::wstring& arg) {
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
    std::wstring out = L"\"";
    size_t backslashes = 0;
    for (wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
        } else if (c == L'"') {
            out.append(backslashes * 2 + 1, L'\\');
            out += c;
            backslashes = 0;
        } else {
            out.append(backslashes, L'\\');
            out += c;
            backslashes = 0;
        }
    }
    out.append(backslashes * 2, L'\\');
    out += L'"';
    return out;
}

int exec_command(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env) {
    std::wstring cmdline;
    for (const auto& a : argv) {
        if (!cmdline.empty()) cmdline += L' ';
        cmdline += quote_arg(widen(a));
    }
    // The block must be sorted case-insensitively for CreateProcessW.
    auto sorted = env;
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
        return str::to_lower_ascii(a.first) < str::to_lower_ascii(b.first);
    });
    std::wstring block;
    std::wstring path;
    for (const auto& [k, v] : sorted) {
        block += widen(k) + L"=" + widen(v);
        block += L'\0';
        if (str::iequals_ascii(k, "PATH")) path = widen(v);
    }
    block += L'\0';
    // Look the program up on the pair's PATH, not on ours.
    std::wstring program = widen(argv.at(0));
    wchar_t found[32768];
    if (SearchPathW(path.c_str(), program.c_str(), L".exe", 32768, found, nullptr) > 0) program = found;
    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    if (!CreateProcessW(program.c_str(), cmdline.data(), nullptr, nullptr, TRUE, CREATE_UNICODE_ENVIRONMENT,
                        block.data(), nullptr, &si, &pi)) {
        std::cerr << "cudaenv: error: cannot run '" << argv[0] << "' (Windows error " << GetLastError() << ")\n";
        return 127;
    }
    WaitForSingleObject(pi.hProcess, INFINITE);
    DWORD code = 1;
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    return static_cast<int>(code);
}

bool is_executable(const fs::path& p) { return fsx::is_file(p); }

void make_executable(const fs::path&) {}

const char* exe_suffix() { return ".exe"; }

}  // namespace cudaenv::platform
