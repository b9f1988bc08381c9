#include "nvidia/driver.hpp"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "platform/nvidia_driver.hpp"

namespace cudaenv::nvidia {

namespace {

// The value after the first of `labels` in `text` ("Driver Version:" ...), read
// by platform::driver_version_at: bounded, and "" unless it is a version.
std::string value_after(std::string_view text, std::initializer_list<std::string_view> labels) {
    for (auto label : labels)
        if (auto at = text.find(label); at != std::string_view::npos)
            return platform::driver_version_at(text.substr(at + label.size()));
    return {};
}

}  // namespace

std::pair<std::string, std::string> parse_nvidia_smi(const std::string& text) {
    std::pair<std::string, std::string> out;
    out.first = value_after(text, {"Driver Version:", "KMD Version:"});
    if (out.first.find('.') == std::string::npos) out.first.clear();
    out.second = value_after(text, {"CUDA Version:", "CUDA UMD Version:"});
    // The newest CUDA a driver runs is a major.minor.
    if (std::count(out.second.begin(), out.second.end(), '.') != 1) out.second.clear();
    return out;
}

}  // namespace cudaenv::nvidia
