#include "platform/dynlib.hpp"

#include <dlfcn.h>
#include <link.h>

namespace cudaenv::platform {

DynLib DynLib::open(const std::filesystem::path& path, std::string& error) {
    DynLib lib;
    dlerror();
    lib.handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib.handle_) {
        const char* e = dlerror();
        error = e ? e : "dlopen failed";
    }
    return lib;
}

void* DynLib::symbol(const char* name) const {
    if (!handle_) return nullptr;
    return ::dlsym(handle_, name);
}

void add_library_search_dir(const std::filesystem::path&) {}

std::vector<std::string> loaded_libraries() {
    std::vector<std::string> out;
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto* v = static_cast<std::vector<std::string>*>(data);
            if (info->dlpi_name && info->dlpi_name[0]) v->emplace_back(info->dlpi_name);
            return 0;
        },
        &out);
    return out;
}

}  // namespace cudaenv::platform
