#include "platform/dll_deps.hpp"

#include <windows.h>

#include <set>

#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/pe.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace fs = std::filesystem;

std::vector<std::string> missing_dll_dependencies(const fs::path& dll, const std::vector<fs::path>& search_dirs) {
    std::vector<std::string> missing;
    std::set<std::string> seen;  // lower-case: Windows file names fold case
    // The loader's order for LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS.
    // The first DLL's folder serves every dependency down the chain.
    const auto system32 = system_library_dirs().at(0);
    std::vector<fs::path> dirs = {fsx::absolute_normal(dll).parent_path(), executable_path().parent_path()};
    dirs.insert(dirs.end(), search_dirs.begin(), search_dirs.end());
    dirs.push_back(system32);
    std::vector<fs::path> todo = {dll};
    while (!todo.empty() && seen.size() < 4096) {
        auto file = todo.back();
        todo.pop_back();
        for (const auto& name : pe::imported_dlls(file)) {
            auto key = str::to_lower_ascii(name);
            if (!seen.insert(key).second) continue;
            if (key.starts_with("api-ms-win-") || key.starts_with("ext-ms-")) continue;
            if (GetModuleHandleW(fsx::from_utf8(name).c_str())) continue;
            bool found = false;
            for (const auto& d : dirs) {
                auto candidate = d / fsx::from_utf8(name);
                if (!fsx::is_file(candidate)) continue;
                found = true;
                // System32's own DLLs are the OS's business; the others may miss something themselves.
                if (d != system32) todo.push_back(candidate);
                break;
            }
            if (!found) missing.push_back(name);
        }
    }
    return missing;
}

}  // namespace cudaenv::platform
