#include "platform/win_cmdline.hpp"

#include <algorithm>

#include "util/fs.hpp"

namespace cudaenv::platform {

namespace {

std::wstring wide(const std::string& s) { return fsx::from_utf8(s).wstring(); }

}  // namespace

std::wstring quote_windows_arg(const std::wstring& arg) {
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) return arg;
    std::wstring out = L"\"";
    size_t backslashes = 0;
    for (wchar_t c : arg) {
        if (c == L'\\') {
            ++backslashes;
            continue;
        }
        // Backslashes are literal unless a quote follows: then each is doubled
        // and the quote escaped.
        out.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
        backslashes = 0;
        out += c;
    }
    // Before the closing quote, backslashes are doubled too.
    out.append(backslashes * 2, L'\\');
    out += L'"';
    return out;
}

std::wstring windows_command_line(const std::vector<std::string>& argv) {
    std::wstring cmdline;
    for (const auto& a : argv) {
        if (!cmdline.empty()) cmdline += L' ';
        cmdline += quote_windows_arg(wide(a));
    }
    return cmdline;
}

std::wstring windows_env_block(const std::vector<std::pair<std::string, std::string>>& utf8_env,
                               std::wstring (*upper)(std::wstring), std::wstring* path) {
    std::vector<std::pair<std::wstring, std::wstring>> env;
    for (const auto& [k, v] : utf8_env) env.emplace_back(wide(k), wide(v));
    std::stable_sort(env.begin(), env.end(),
                     [upper](const auto& a, const auto& b) { return upper(a.first) < upper(b.first); });
    std::wstring block;
    if (path) path->clear();
    for (const auto& [k, v] : env) {
        block += k + L"=" + v;
        block += L'\0';
        if (path && upper(k) == L"PATH") *path = v;
    }
    if (env.empty()) block += L'\0';
    block += L'\0';
    return block;
}

}  // namespace cudaenv::platform
