#include "platform/nvidia_driver.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool is_driver_version(std::string_view text) {
    if (text.empty() || text.size() > 32) return false;
    int fields = 1, digits = 0;
    for (char c : text) {
        if (c == '.') {
            if (digits == 0 || ++fields > 4) return false;
            digits = 0;
        } else if (!digit(c) || ++digits > 9) {
            return false;
        }
    }
    return digits > 0;
}

std::string driver_version_at(std::string_view text) {
    text = text.substr(0, 64);
    size_t i = 0;
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t end = i;
    while (end < text.size() && (digit(text[end]) || text[end] == '.')) ++end;
    // What follows must end the version: a run of digits cut at 64 bytes is no version.
    if (end == text.size() && text.size() == 64) return {};
    if (end < text.size() && !blank(text[end]) && text[end] != '|') return {};
    auto v = text.substr(i, end - i);
    return is_driver_version(v) ? std::string(v) : std::string();
}

std::optional<std::string> parse_proc_driver_version(const std::string& text) {
    // The version is the first word after "Kernel Module" that is one ("for x86_64" comes between in the open modules').
    constexpr std::string_view mark = "Kernel Module";
    auto at = text.find(mark);
    if (at == std::string::npos) return std::nullopt;
    auto line_end = text.find('\n', at);
    std::string_view rest(text.data() + at + mark.size(),
                          (line_end == std::string::npos ? text.size() : line_end) - at - mark.size());
    for (int words = 0; words < 8 && !rest.empty(); ++words) {
        size_t i = 0;
        while (i < rest.size() && blank(rest[i])) ++i;
        rest.remove_prefix(i);
        if (rest.empty()) break;
        if (auto v = driver_version_at(rest); !v.empty() && v.find('.') != std::string::npos) return v;
        size_t j = 0;
        while (j < rest.size() && !blank(rest[j])) ++j;
        rest.remove_prefix(j);
    }
    return std::nullopt;
}

std::optional<std::string> parse_sys_module_version(const std::string& text) {
    std::string_view t(text);
    while (!t.empty() && blank(t.back())) t.remove_suffix(1);
    while (!t.empty() && blank(t.front())) t.remove_prefix(1);
    if (t.find('.') == std::string_view::npos || !is_driver_version(t)) return std::nullopt;
    return std::string(t);
}

std::optional<std::string> kernel_driver_version() {
    if (auto text = fsx::read_file("/proc/driver/nvidia/version", 1 << 16))
        if (auto v = parse_proc_driver_version(*text)) return v;
    if (auto text = fsx::read_file("/sys/module/nvidia/version", 1 << 10)) return parse_sys_module_version(*text);
    return std::nullopt;
}

std::optional<std::set<std::string>> kernel_gpu_models() {
    if constexpr (is_windows) return std::nullopt;
    std::set<std::string> models;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec), end; !ec && it != end; it.increment(ec)) {
        auto info = fsx::read_file(it->path() / "information", 1 << 16);
        if (!info) continue;
        for (const auto& line : str::split(*info, '\n'))
            if (line.starts_with("Model:")) models.insert(std::string(str::trim(line.substr(6))));
    }
    return models;
}

}  // namespace cudaenv::platform
