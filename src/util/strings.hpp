#pragma once
// String helpers; knows nothing of CUDA.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv::str {

// Byte order marks, written once. UTF-8's: Windows PowerShell 5.1 reads a
// script without it in the ANSI code page; Notepad may write it; toml++ and
// nlohmann skip it. UTF-16's: Windows PowerShell 5.1's `>` writes UTF-16 LE.
inline constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
inline constexpr std::string_view utf16le_bom = "\xFF\xFE";
inline constexpr std::string_view utf16be_bom = "\xFE\xFF";

std::vector<std::string> split(std::string_view s, char sep);  // keeps empty fields
std::string join(const std::vector<std::string>& parts, std::string_view sep);
std::string_view trim(std::string_view s);
std::string to_lower_ascii(std::string_view s);
bool iequals_ascii(std::string_view a, std::string_view b);
bool starts_with_icase(std::string_view s, std::string_view prefix);
bool is_digits(std::string_view s);
// Reads a non-negative decimal that fits an int; false on anything else.
bool parse_int(std::string_view s, int& out);
// Replaces every occurrence of `from` with `to`.
std::string replace_all(std::string s, std::string_view from, std::string_view to);
// Text from outside (a folder name, a spec, a traced program's record) made
// safe to print on a terminal: control characters (C0, DEL, C1) and bytes
// that are not UTF-8 are written as escapes (\n, \t, \x1b, \u009b); every
// other character is kept as it is (a backslash too: Windows paths stay
// readable).
std::string visible(std::string_view s);
// The code points of UTF-8 text; nullopt when `s` is not UTF-8 (overlong
// forms and surrogates included).
std::optional<std::u32string> utf8_code_points(std::string_view s);
// Whether `s` has a control character (C0 or DEL); with `line_breaks_only`,
// whether it has CR or LF.
bool has_control(std::string_view s, bool line_breaks_only = false);
// True for 64 hex digits (either case): a SHA-256 digest as text.
bool is_sha256_hex(std::string_view s);
// "1.5 MiB", "700.0 MiB", "2.3 GiB".
std::string human_bytes(double bytes);

}  // namespace cudaenv::str
