#include <windows.h>
#include <tlhelp32.h>

#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "platform/win32.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace {

using win32::narrow;
using win32::widen;

std::string win_message(LSTATUS code) {
    wchar_t* buf = nullptr;
    FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                   static_cast<DWORD>(code), 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
    std::wstring w = buf ? buf : L"error";
    if (buf) LocalFree(buf);
    while (!w.empty() && (w.back() == L'\n' || w.back() == L'\r' || w.back() == L'.')) w.pop_back();
    return narrow(w) + " (" + std::to_string(code) + ")";
}

// A string value of an HKCU key, unexpanded; nullopt when absent.
std::optional<UserEnvValue> read_value(const wchar_t* key, const std::string& name) {
    HKEY h = nullptr;
    if (RegOpenKeyExW(HKEY_CURRENT_USER, key, 0, KEY_QUERY_VALUE, &h) != ERROR_SUCCESS) return std::nullopt;
    auto wname = widen(name);
    DWORD type = 0, bytes = 0;
    LSTATUS rc = RegQueryValueExW(h, wname.c_str(), nullptr, &type, nullptr, &bytes);
    std::optional<UserEnvValue> out;
    if (rc == ERROR_SUCCESS && (type == REG_SZ || type == REG_EXPAND_SZ)) {
        std::wstring buf(bytes / sizeof(wchar_t) + 1, L'\0');
        DWORD got = static_cast<DWORD>(buf.size() * sizeof(wchar_t));
        rc = RegQueryValueExW(h, wname.c_str(), nullptr, &type, reinterpret_cast<BYTE*>(buf.data()), &got);
        if (rc == ERROR_SUCCESS) {
            buf.resize(got / sizeof(wchar_t));
            while (!buf.empty() && buf.back() == L'\0') buf.pop_back();
            out = UserEnvValue{narrow(buf), type == REG_EXPAND_SZ};
        }
    }
    RegCloseKey(h);
    return out;
}

void write_value(const wchar_t* key, const std::string& name, const UserEnvValue& v) {
    HKEY h = nullptr;
    LSTATUS rc = RegCreateKeyExW(HKEY_CURRENT_USER, key, 0, nullptr, 0, KEY_SET_VALUE, nullptr, &h, nullptr);
    if (rc != ERROR_SUCCESS) throw Error("cannot open HKCU\\" + narrow(key) + ": " + win_message(rc));
    auto data = widen(v.value);
    rc = RegSetValueExW(h, widen(name).c_str(), 0, v.expandable ? REG_EXPAND_SZ : REG_SZ,
                        reinterpret_cast<const BYTE*>(data.c_str()),
                        static_cast<DWORD>((data.size() + 1) * sizeof(wchar_t)));
    RegCloseKey(h);
    if (rc != ERROR_SUCCESS) throw Error("cannot write HKCU\\" + narrow(key) + "\\" + name + ": " + win_message(rc));
}

void remove_value(const wchar_t* key, const std::string& name) {
    HKEY h = nullptr;
    if (RegOpenKeyExW(HKEY_CURRENT_USER, key, 0, KEY_SET_VALUE, &h) != ERROR_SUCCESS) return;
    LSTATUS rc = RegDeleteValueW(h, widen(name).c_str());
    RegCloseKey(h);
    if (rc != ERROR_SUCCESS && rc != ERROR_FILE_NOT_FOUND)
        throw Error("cannot remove HKCU\\" + narrow(key) + "\\" + name + ": " + win_message(rc));
}

constexpr const wchar_t* env_key = L"Environment";
constexpr const wchar_t* cmd_key = L"Software\\Microsoft\\Command Processor";

}  // namespace

std::optional<UserEnvValue> user_env_read(const std::string& name) { return read_value(env_key, name); }
void user_env_write(const std::string& name, const UserEnvValue& value) { write_value(env_key, name, value); }
void user_env_remove(const std::string& name) { remove_value(env_key, name); }

void broadcast_environment_change() {
    DWORD_PTR result = 0;
    SendMessageTimeoutW(HWND_BROADCAST, WM_SETTINGCHANGE, 0, reinterpret_cast<LPARAM>(L"Environment"),
                        SMTO_ABORTIFHUNG, 5000, &result);
}

std::optional<UserEnvValue> cmd_autorun_read() { return read_value(cmd_key, "AutoRun"); }

void cmd_autorun_write(const std::optional<UserEnvValue>& value) {
    if (value) write_value(cmd_key, "AutoRun", *value);
    else remove_value(cmd_key, "AutoRun");
}

bool cmd_processor_key_exists() {
    HKEY h = nullptr;
    if (RegOpenKeyExW(HKEY_CURRENT_USER, cmd_key, 0, KEY_QUERY_VALUE, &h) != ERROR_SUCCESS) return false;
    RegCloseKey(h);
    return true;
}

void cmd_processor_key_remove_if_empty() {
    HKEY h = nullptr;
    if (RegOpenKeyExW(HKEY_CURRENT_USER, cmd_key, 0, KEY_QUERY_VALUE, &h) != ERROR_SUCCESS) return;
    DWORD subkeys = 0, values = 0;
    LSTATUS rc = RegQueryInfoKeyW(h, nullptr, nullptr, nullptr, &subkeys, nullptr, nullptr, &values, nullptr, nullptr,
                                  nullptr, nullptr);
    RegCloseKey(h);
    // RegDeleteKeyW removes only a key without subkeys; values would go with it, so check those.
    if (rc == ERROR_SUCCESS && subkeys == 0 && values == 0) RegDeleteKeyW(HKEY_CURRENT_USER, cmd_key);
}

std::filesystem::path documents_dir() {
    // The shell folder "Personal" follows a redirection to OneDrive or another drive.
    if (auto v = read_value(L"Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\User Shell Folders", "Personal")) {
        auto w = widen(v->value);
        DWORD n = ExpandEnvironmentStringsW(w.c_str(), nullptr, 0);
        if (n > 0) {
            std::wstring buf(n, L'\0');
            DWORD got = ExpandEnvironmentStringsW(w.c_str(), buf.data(), n);
            if (got > 0 && got <= n) {
                buf.resize(got - 1);
                if (!buf.empty()) return std::filesystem::path(buf);
            }
        }
    }
    return home_dir() / "Documents";
}

std::optional<std::string> parent_process_name() {
    DWORD self = GetCurrentProcessId(), parent = 0;
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE) return std::nullopt;
    PROCESSENTRY32W e{};
    e.dwSize = sizeof e;
    std::optional<std::string> out;
    for (BOOL ok = Process32FirstW(snap, &e); ok; ok = Process32NextW(snap, &e))
        if (e.th32ProcessID == self) parent = e.th32ParentProcessID;
    e = PROCESSENTRY32W{};
    e.dwSize = sizeof e;
    for (BOOL ok = Process32FirstW(snap, &e); ok && parent; ok = Process32NextW(snap, &e))
        if (e.th32ProcessID == parent) {
            out = narrow(e.szExeFile);
            break;
        }
    CloseHandle(snap);
    return out;
}

}  // namespace cudaenv::platform
