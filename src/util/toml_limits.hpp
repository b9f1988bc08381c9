#pragma once
// Bounds checked on a TOML text before toml++ parses it. toml++ recurses per
// dotted-key part and per nesting level, so a hostile file (a key of 20,000
// dotted parts, 400,000 in 800 KB) overflows the stack; and some invalid
// headers ("[[[x", "[=") reach an assertion (abort in Debug, undefined
// behaviour in Release) instead of a parse error. Every TOML file read from
// disk goes through check_toml_limits first. Knows nothing of CUDA.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cudaenv {

struct TomlLimits {
    size_t max_bytes = 16u << 20;      // the whole text
    size_t max_depth = 32;             // nested [ and { (a table header counts 1 or 2)
    size_t max_key_parts = 32;         // a.b.c... (a float's "1.5" counts 2)
    size_t max_bare_bytes = 4096;      // one unquoted word (key, number, date)
};

struct TomlLimitIssue {
    size_t line = 1;    // 1-based, as toml++ reports
    size_t column = 1;  // 1-based, in bytes
    std::string reason;
};

// The first place where `text` exceeds `limits` or has a table header toml++
// cannot reject safely; nullopt when toml++ may parse it. Only rejects text
// that is invalid TOML or beyond the limits, never a valid cudaenv file.
std::optional<TomlLimitIssue> check_toml_limits(std::string_view text, const TomlLimits& limits = {});

}  // namespace cudaenv
