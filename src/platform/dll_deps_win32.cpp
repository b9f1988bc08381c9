#include "platform/dll_deps.hpp"

#include <windows.h>

#include <set>

#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/pe.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace fs = std::filesystem;

std::vector<std::string> missing_dll_dependencies(const fs::path& dll) {
    std::vector<std::string> missing;
    std::set<std::string> seen;  // lower-case: Windows file names fold case
    const auto load_dir = fsx::absolute_normal(dll).parent_path();
    const std::vector<fs::path> dirs = {load_dir, executable_path().parent_path(), system_library_dirs().at(0)};
    std::vector<fs::path> todo = {dll};
    // Breadth first over the DLLs found beside it; System32's own are the OS's business.
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
                if (d == load_dir) todo.push_back(candidate);
                break;
            }
            if (!found) missing.push_back(name);
        }
    }
    return missing;
}

}  // namespace cudaenv::platform
