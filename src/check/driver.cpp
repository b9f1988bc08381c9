#include "check/driver.hpp"

#include <regex>

#include "util/fs.hpp"

namespace cudaenv::check {

std::optional<std::string> parse_proc_driver_version(const std::string& text) {
    // "... Kernel Module  580.159.04 ..." or "... Open Kernel Module for x86_64  580.95.05 ...".
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

std::pair<std::string, std::string> parse_nvidia_smi(const std::string& text) {
    static const std::regex drv(R"((Driver|KMD) Version:\s*([0-9]+\.[0-9.]+))");
    static const std::regex cuda(R"(CUDA (UMD )?Version:\s*([0-9]+\.[0-9]+))");
    std::smatch m;
    std::pair<std::string, std::string> out;
    if (std::regex_search(text, m, drv)) out.first = m[2].str();
    if (std::regex_search(text, m, cuda)) out.second = m[2].str();
    return out;
}

}  // namespace cudaenv::check
