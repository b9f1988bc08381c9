// Windows' command line and environment block rules (platform/win_cmdline),
// checked on every OS.
#include <doctest/doctest.h>

#include <cwctype>

#include "platform/win_cmdline.hpp"

using namespace cudaenv::platform;

namespace {

std::wstring ascii_upper(std::wstring s) {
    for (auto& c : s) c = static_cast<wchar_t>(std::towupper(static_cast<wint_t>(c)));
    return s;
}

}  // namespace

TEST_CASE("quote_windows_arg: what CommandLineToArgvW reads back unchanged") {
    CHECK(quote_windows_arg(L"nvcc") == L"nvcc");
    CHECK(quote_windows_arg(L"C:\\CUDA\\bin\\nvcc.exe") == L"C:\\CUDA\\bin\\nvcc.exe");  // no quote follows
    CHECK(quote_windows_arg(L"") == L"\"\"");
    CHECK(quote_windows_arg(L"a b") == L"\"a b\"");
    CHECK(quote_windows_arg(L"a\tb") == L"\"a\tb\"");
    CHECK(quote_windows_arg(L"a\nb") == L"\"a\nb\"");
    CHECK(quote_windows_arg(L"say \"hi\"") == L"\"say \\\"hi\\\"\"");
    // Backslashes before a quote, or before the closing quote, are doubled.
    CHECK(quote_windows_arg(L"a\\\"b") == L"\"a\\\\\\\"b\"");
    CHECK(quote_windows_arg(L"C:\\Program Files\\") == L"\"C:\\Program Files\\\\\"");
    CHECK(quote_windows_arg(L"C:\\Program Files\\CUDA") == L"\"C:\\Program Files\\CUDA\"");
}

TEST_CASE("windows_command_line: quoted arguments joined by spaces") {
    CHECK(windows_command_line({}) == L"");
    CHECK(windows_command_line({"C:\\a b\\nvcc.exe", "--version", ""}) == L"\"C:\\a b\\nvcc.exe\" --version \"\"");
}

TEST_CASE("windows_env_block: sorted by upper-cased name, NUL-ended, PATH in any case") {
    std::wstring path = L"stale";
    auto block = windows_env_block({{"b", "2"}, {"Path", "C:\\x;C:\\y"}, {"A", "1"}}, ascii_upper, &path);
    CHECK(block == std::wstring(L"A=1\0b=2\0Path=C:\\x;C:\\y\0\0", 24));
    CHECK(path == L"C:\\x;C:\\y");
    SUBCASE("an empty environment is two NULs, and no PATH") {
        CHECK(windows_env_block({}, ascii_upper, &path) == std::wstring(L"\0\0", 2));
        CHECK(path.empty());
    }
    SUBCASE("names that compare equal keep their order") {
        CHECK(windows_env_block({{"x", "1"}, {"X", "2"}}, ascii_upper) == std::wstring(L"x=1\0X=2\0\0", 9));
    }
}
