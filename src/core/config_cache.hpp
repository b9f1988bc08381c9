#pragma once
// config.toml as last parsed, kept in <store>/cache/config.txt in the store's
// record format (util/records.hpp), so that what runs on every switch (env,
// use, hook-env, the tool shims) reads the adopted folders without a TOML
// parser: toml++ costs about as much as the rest of `env` together
// (docs/performance.md).
//
// The copy names the config.toml it was made from by fsx::file_identity
// (device, inode, mtime, size), taken before that file was read; it is used
// only while config.toml is still that file. cudaenv replaces config.toml
// by renaming a new file over it, and an editor's rewrite changes its
// mtime, so any change means parsing the TOML again. The copy is written
// by whoever parsed the TOML (best effort: a store that cannot be written
// just keeps none), never under the store's lock, and never read by a
// writer, which always parses config.toml itself.
#include <filesystem>
#include <optional>
#include <string_view>

#include "core/config.hpp"

namespace cudaenv {

// config.toml's content, from the copy when it is current, else parsed
// (and the copy written). Errors as Config::load.
Config load_config_cached(const std::filesystem::path& config_file, const std::filesystem::path& cache_file);

// The copy's content when it was made from the file `stamp` names; nullopt
// when it is missing, damaged or stale.
std::optional<Config> read_config_cache(const std::filesystem::path& cache_file, std::string_view stamp);
// Writes the copy (best effort).
void write_config_cache(const std::filesystem::path& cache_file, std::string_view stamp, const Config& c);

}  // namespace cudaenv
