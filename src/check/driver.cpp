#include "check/driver.hpp"

#include <regex>

namespace cudaenv::check {

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
