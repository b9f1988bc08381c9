#pragma once
// Which spec is active, and why (cli.md's order; first match wins):
//   1. CUDAENV_VERSION   2. the nearest .cudaenv / .tool-versions walking up
//   3. the global default   4. system
#include <filesystem>
#include <optional>
#include <string>

#include "core/spec.hpp"

namespace cudaenv {

struct Config;

enum class Origin { env, file, global, system };

struct ActiveSpec {
    Spec spec;
    Origin origin = Origin::system;
    std::filesystem::path file;  // for Origin::file
    // "CUDAENV_VERSION", the file's path, "global (<config>)" or "default".
    std::string describe() const;
    const char* origin_name() const;  // "env", "file", "global", "system"
};

struct VersionFile {
    std::filesystem::path path;
    Spec spec;
};

// The nearest .cudaenv (or .tool-versions with a `cuda` line) in `start` or
// above. Throws Error naming the file and line when its content is not a
// spec: the file is data and nothing in it is ever run.
std::optional<VersionFile> find_version_file(const std::filesystem::path& start);

// Parses a version file's text; throws Error("<path>:<line>: ...").
Spec parse_dot_cudaenv(const std::string& text, const std::filesystem::path& path);
// nullopt when the .tool-versions has no `cuda` line.
std::optional<Spec> parse_tool_versions(const std::string& text, const std::filesystem::path& path);

ActiveSpec resolve_active(const std::filesystem::path& cwd, const std::optional<std::string>& env_version,
                          const Config& config);

}  // namespace cudaenv
