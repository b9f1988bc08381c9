#include "platform/process.hpp"

namespace cudaenv::platform {

std::optional<std::string> find_python(const std::string& path) {
    for (auto name : {"python3", "python"})
        if (auto py = find_on_path(name, path)) return py;
    return std::nullopt;
}

}  // namespace cudaenv::platform
