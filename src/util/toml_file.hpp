#pragma once
// Reading the store's TOML files (config.toml, checks.toml, setup.toml) the
// same way: odd states get clear words, hostile text is bounded before
// toml++ sees it (util/toml_limits.hpp), parse errors name file:line:col.
#include <filesystem>
#include <optional>
#include <string>
#include <toml++/toml.h>

namespace cudaenv {

// The largest store file read; real ones are a few KiB.
inline constexpr size_t kMaxStoreFileBytes = 16u << 20;

// The text of `file`, or nullopt when there is none (a missing file or a
// dangling link: an empty config). Throws Error naming the path and what to
// do when it is a folder or another non-file, a looping link, too large,
// below something that is not a folder, or unreadable.
std::optional<std::string> read_store_file(const std::filesystem::path& file);

// toml++'s table of `text`, after check_toml_limits. Throws Error
// ("<file>:<line>:<col>: <reason>") that tells the user the file is unchanged.
toml::table parse_store_toml(const std::string& text, const std::filesystem::path& file);

}  // namespace cudaenv
