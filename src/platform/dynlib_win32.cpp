#include "platform/dynlib.hpp"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <psapi.h>

#include "platform/dll_deps.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace {

std::string narrow(const wchar_t* w) {
    std::wstring ws(w);
    return fsx::to_utf8(std::filesystem::path(ws));
}

std::string error_text(DWORD code) {
    wchar_t* buf = nullptr;
    DWORD n = FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                             nullptr, code, 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
    std::string text = n && buf ? narrow(buf) : std::string();
    if (buf) LocalFree(buf);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    return text;
}

// The folders given to AddDllDirectory, in order.
std::vector<std::filesystem::path>& search_dirs() {
    static std::vector<std::filesystem::path> dirs;
    return dirs;
}

}  // namespace

void add_library_search_dir(const std::filesystem::path& dir) {
    auto abs = fsx::absolute_normal(dir);
    for (const auto& d : search_dirs())
        if (d == abs) return;
    if (AddDllDirectory(abs.wstring().c_str())) search_dirs().push_back(abs);
}

DynLib DynLib::open(const std::filesystem::path& path, std::string& error) {
    DynLib lib;
    // The DLL's own folder for its dependencies, then the application folder,
    // the AddDllDirectory folders and System32; PATH is not searched.
    HMODULE h = LoadLibraryExW(path.wstring().c_str(), nullptr,
                               LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
    if (!h) {
        DWORD code = GetLastError();
        error = "error " + std::to_string(code) + ": " + error_text(code);
        // 126 (module not found) for a file that exists means one of its
        // dependencies is missing.
        if (code == ERROR_MOD_NOT_FOUND && std::filesystem::exists(path)) {
            // Windows does not say which one: read the import tables and look.
            std::string names, where = "next to it, ";
            for (const auto& m : missing_dll_dependencies(path, search_dirs())) names += (names.empty() ? "" : ", ") + m;
            for (const auto& d : search_dirs()) where += "in " + fsx::to_utf8(d) + ", ";
            where += "in the application folder or in System32";
            error += names.empty() ? " (the file exists: a DLL it depends on was not found " + where + ")"
                                   : " (the file exists; missing: " + names + ", not " + where + ")";
        }
    }
    lib.handle_ = reinterpret_cast<void*>(h);
    return lib;
}

void* DynLib::symbol(const char* name) const {
    if (!handle_) return nullptr;
    return reinterpret_cast<void*>(GetProcAddress(static_cast<HMODULE>(handle_), name));
}

std::vector<std::string> loaded_libraries() {
    std::vector<std::string> out;
    HANDLE proc = GetCurrentProcess();
    std::vector<HMODULE> mods(1024);
    DWORD needed = 0;
    if (!EnumProcessModules(proc, mods.data(), static_cast<DWORD>(mods.size() * sizeof(HMODULE)), &needed))
        return out;
    size_t count = needed / sizeof(HMODULE);
    if (count > mods.size()) {
        mods.resize(count);
        if (!EnumProcessModules(proc, mods.data(), static_cast<DWORD>(mods.size() * sizeof(HMODULE)), &needed))
            return out;
        count = std::min(mods.size(), static_cast<size_t>(needed / sizeof(HMODULE)));
    }
    // The program itself is no library (dl_iterate_phdr gives it no name on
    // POSIX either): cudaenv.exe would pass for a CUDA library by its name.
    HMODULE self = GetModuleHandleW(nullptr);
    for (size_t i = 0; i < count; ++i) {
        if (mods[i] == self) continue;
        wchar_t name[32768];
        DWORD n = GetModuleFileNameExW(proc, mods[i], name, static_cast<DWORD>(std::size(name)));
        if (n) out.push_back(narrow(name));
    }
    return out;
}

}  // namespace cudaenv::platform
