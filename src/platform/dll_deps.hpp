#pragma once
// Windows never says which DLL was missing when LoadLibrary fails with error
// 126 ("The specified module could not be found") for a file that exists.
// This answers it the way the loader searches with
// LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS.
#ifdef _WIN32
#include <filesystem>
#include <string>
#include <vector>

namespace cudaenv::platform {
// The DLLs `dll` imports, directly or through a dependency found outside
// System32, that are in none of: its own folder, this program's folder,
// `search_dirs` (AddDllDirectory), System32, the DLLs already loaded. Names as
// the importing file writes them; API sets (api-ms-win-*) are resolved by the
// loader itself and never reported.
std::vector<std::string> missing_dll_dependencies(const std::filesystem::path& dll,
                                                  const std::vector<std::filesystem::path>& search_dirs);
}  // namespace cudaenv::platform
#endif
