#pragma once
// Loading shared libraries by absolute path and asking the OS where every
// loaded library came from. `check` uses it to load a pair's CUDA runtime and
// cuDNN without linking against them.
#include <filesystem>
#include <string>
#include <vector>

// The calling convention of the C functions that CUDA's, cuDNN's and NVML's
// libraries export (CUDAAPI, CUDNNWINAPI: __stdcall on Windows, which x64
// ignores; kept for the record), for the function pointer types that call them.
#ifdef _WIN32
#define CUDAENV_LIBAPI __stdcall
#else
#define CUDAENV_LIBAPI
#endif

namespace cudaenv::platform {

class DynLib {
public:
    DynLib() = default;
    DynLib(const DynLib&) = delete;
    DynLib& operator=(const DynLib&) = delete;
    DynLib(DynLib&& o) noexcept : handle_(o.handle_) { o.handle_ = nullptr; }
    DynLib& operator=(DynLib&& o) noexcept {
        std::swap(handle_, o.handle_);
        return *this;
    }
    // Never unloaded: CUDA libraries do not like being unloaded, and the
    // process that loads them is a short-lived child.
    ~DynLib() = default;

    // Loads by absolute path. POSIX: dlopen(RTLD_NOW | RTLD_LOCAL). Windows:
    // LoadLibraryExW(LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR | LOAD_LIBRARY_SEARCH_DEFAULT_DIRS),
    // so the library's own folder is searched for its dependencies and PATH is not.
    // On failure, `error` holds the loader's exact reason (dlerror, or the
    // Windows error code and message).
    static DynLib open(const std::filesystem::path& path, std::string& error);

    bool loaded() const { return handle_ != nullptr; }
    // nullptr when the symbol is missing.
    void* symbol(const char* name) const;

private:
    void* handle_ = nullptr;
};

// Adds a folder where the dependencies of libraries loaded after this call
// are looked for. Windows: AddDllDirectory, which LoadLibraryExW searches
// with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS (PATH is not searched): the toolkit's
// bin\ that holds the cublas64_*.dll cuDNN's DLLs import. POSIX: nothing, the
// loader reads LD_LIBRARY_PATH from the probe's environment.
void add_library_search_dir(const std::filesystem::path& dir);

// The full paths of every library loaded in this process, in load order.
std::vector<std::string> loaded_libraries();

}  // namespace cudaenv::platform
