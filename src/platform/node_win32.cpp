#include "platform/node.hpp"

#include <windows.h>

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace {

std::string last_error_text(DWORD err) {
    wchar_t* buf = nullptr;
    DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                             nullptr, err, 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
    std::wstring w = n && buf ? std::wstring(buf, n) : L"error " + std::to_wstring(err);
    if (buf) LocalFree(buf);
    while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L'.')) w.pop_back();
    return fsx::to_utf8(std::filesystem::path(w));
}

}  // namespace

std::string host_name() {
    wchar_t buf[256];
    DWORD n = 256;
    if (!GetComputerNameExW(ComputerNameDnsHostname, buf, &n) || n == 0) return "unknown";
    return fsx::to_utf8(std::filesystem::path(std::wstring(buf, n)));
}

long current_pid() { return static_cast<long>(GetCurrentProcessId()); }

std::string boot_id() {
    // The boot time in minutes since the epoch: now minus the time since boot.
    FILETIME ft{};
    GetSystemTimeAsFileTime(&ft);
    ULARGE_INTEGER now{};
    now.LowPart = ft.dwLowDateTime;
    now.HighPart = ft.dwHighDateTime;
    const unsigned long long now_ms = now.QuadPart / 10000ULL, up_ms = GetTickCount64();
    return "boot-minute-" + std::to_string((now_ms - up_ms + 30000ULL) / 60000ULL);
}

bool process_alive(long pid) {
    if (pid <= 0) return false;
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, static_cast<DWORD>(pid));
    if (!h) return GetLastError() == ERROR_ACCESS_DENIED;
    DWORD code = 0;
    bool alive = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
    CloseHandle(h);
    return alive;
}

bool create_exclusive(const std::filesystem::path& file, const std::string& content) {
    HANDLE h = CreateFileW(file.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
        DWORD err = GetLastError();
        if (err == ERROR_FILE_EXISTS || err == ERROR_ALREADY_EXISTS) return false;
        throw Error("cannot create '" + fsx::to_utf8(file) + "': " + last_error_text(err));
    }
    DWORD written = 0;
    bool ok = WriteFile(h, content.data(), static_cast<DWORD>(content.size()), &written, nullptr) &&
              written == content.size();
    DWORD err = GetLastError();
    FlushFileBuffers(h);
    CloseHandle(h);
    if (!ok) {
        DeleteFileW(file.c_str());
        throw Error("cannot write '" + fsx::to_utf8(file) + "': " + last_error_text(err));
    }
    return true;
}

std::filesystem::path system_store_root() {
    if (auto r = get_env("CUDAENV_SYSTEM_ROOT"); r && !r->empty()) return fsx::absolute_normal(fsx::from_utf8(*r));
    if (auto p = get_env("ProgramData"); p && !p->empty()) return fsx::from_utf8(*p) / "cudaenv";
    return std::filesystem::path(L"C:\\ProgramData\\cudaenv");
}

}  // namespace cudaenv::platform
