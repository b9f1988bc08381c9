#pragma once
// Which spec is active, and why (README.md "Specs and resolution"; first match wins):
//   1. CUDAENV_VERSION   2. the nearest .cudaenv / .tool-versions walking up
//   3. the global default   4. system
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/spec.hpp"

namespace cudaenv {

enum class Origin { env, file, global, system };

struct ActiveSpec {
    Spec spec;
    Origin origin = Origin::system;
    std::filesystem::path file;  // for Origin::file
    // "CUDAENV_VERSION", the file's path, "global (<config>)" or "default".
    std::string describe() const;
    const char* origin_name() const;  // "env", "file", "global", "system"
};

// A version file is read up to this many bytes; a longer .cudaenv is an
// error and a longer .tool-versions is skipped. The prompt hooks of the shell
// integrations read one byte more and compare it, so the hook and the binary
// agree on what a file says (docs/version-files.md).
inline constexpr size_t max_version_file_bytes = 8 * 1024;
// A UTF-16 version file (what Windows PowerShell 5.1's `"12.4" > .cudaenv`
// writes: 14 bytes) is read up to this many: UTF-16 has a NUL byte in most
// characters, and the bash hook reads a file in pieces that end at each NUL,
// so its cost is bounded by this, not by 8 KiB (issue 40 N7).
inline constexpr size_t max_utf16_version_file_bytes = 256;

struct VersionFile {
    std::filesystem::path path;
    Spec spec;
};

// The nearest .cudaenv (or .tool-versions with a `cuda` line) in `start` or
// above. Throws Error naming the file and line when its content is not a
// spec: the file is data and nothing in it is ever run.
std::optional<VersionFile> find_version_file(const std::filesystem::path& start);

// A version file's bytes as UTF-8 text: UTF-16 LE/BE with a byte-order mark
// is converted, a UTF-8 byte-order mark dropped (docs/version-files.md).
std::string version_file_text(std::string_view bytes);

// Why the binary reads no spec from a version file, decided by its first
// bytes (`head`: at most max_version_file_bytes + 1 of them) and its size,
// in the order the prompt hooks can tell (docs/version-files.md): a NUL byte
// (a NUL character in UTF-16: a spec has none, and nothing after it changes
// the answer), then the size (UTF-16 over max_utf16_version_file_bytes, any
// other over max_version_file_bytes). nullopt: `head` is the whole text.
struct NotAVersionFile {
    size_t line = 1;
    std::string why;
};
std::optional<NotAVersionFile> not_a_version_file(std::string_view head, unsigned long long size);

// Parses a version file's text (its bytes as read: see version_file_text); throws Error("<path>:<line>: ...").
Spec parse_dot_cudaenv(const std::string& text, const std::filesystem::path& path);
// nullopt when the .tool-versions has no `cuda` line.
std::optional<Spec> parse_tool_versions(const std::string& text, const std::filesystem::path& path);

// `global`: the global default's spec text (config.toml's `global`), if any.
ActiveSpec resolve_active(const std::filesystem::path& cwd, const std::optional<std::string>& env_version,
                          const std::optional<std::string>& global);

}  // namespace cudaenv
