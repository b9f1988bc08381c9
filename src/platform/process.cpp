#include "platform/process.hpp"

namespace cudaenv::platform {

std::vector<std::filesystem::path> environment_interpreters() {
    namespace fs = std::filesystem;
#ifdef _WIN32
    return {fs::path("Scripts") / "python.exe", "python.exe"};
#else
    return {fs::path("bin") / "python3", fs::path("bin") / "python"};
#endif
}

std::optional<std::string> find_python(const std::string& path) {
    for (auto name : {"python3", "python"})
        if (auto py = find_on_path(name, path)) return py;
    return std::nullopt;
}

}  // namespace cudaenv::platform
