#include "platform/nvidia_driver.hpp"

#include <regex>

#include "util/fs.hpp"

namespace cudaenv::platform {

std::optional<std::string> parse_proc_driver_version(const std::string& text) {
    static const std::regex re(R"(Kernel Module.*?\s([0-9]+\.[0-9]+(\.[0-9]+)*)(\s|$))");
    std::smatch m;
    if (std::regex_search(text, m, re)) return m[1].str();
    return std::nullopt;
}

std::optional<std::string> parse_sys_module_version(const std::string& text) {
    static const std::regex re(R"(^\s*([0-9]+\.[0-9]+(\.[0-9]+)*)\s*$)");
    std::smatch m;
    if (std::regex_search(text, m, re)) return m[1].str();
    return std::nullopt;
}

std::optional<std::string> kernel_driver_version() {
    if (auto text = fsx::read_file("/proc/driver/nvidia/version", 1 << 16))
        if (auto v = parse_proc_driver_version(*text)) return v;
    if (auto text = fsx::read_file("/sys/module/nvidia/version", 1 << 10)) return parse_sys_module_version(*text);
    return std::nullopt;
}

}  // namespace cudaenv::platform
