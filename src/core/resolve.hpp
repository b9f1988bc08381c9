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

// Parses a version file's text (its bytes as read: see version_file_text); throws Error("<path>:<line>: ...").
Spec parse_dot_cudaenv(const std::string& text, const std::filesystem::path& path);
// nullopt when the .tool-versions has no `cuda` line.
std::optional<Spec> parse_tool_versions(const std::string& text, const std::filesystem::path& path);

// `global`: the global default's spec text (config.toml's `global`), if any.
ActiveSpec resolve_active(const std::filesystem::path& cwd, const std::optional<std::string>& env_version,
                          const std::optional<std::string>& global);

}  // namespace cudaenv
