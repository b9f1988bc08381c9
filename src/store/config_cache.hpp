#pragma once
// config.toml as last parsed, kept in <store>/cache/config.txt in the store's
// record format (util/records.hpp), so that what runs on every switch (env,
// use, hook-env, the tool shims) reads the adopted folders without a TOML
// parser: toml++ cost about as much as the rest of `env` together
// (docs/performance.md).
//
// The copy holds the very text of the config.toml it was parsed from and is
// used only while config.toml reads the same, byte for byte. Reading a few
// KiB and comparing them costs little, and unlike an mtime it cannot be
// fooled by two writes within one tick of the file system's clock (Windows
// and Linux both stamp files with a coarse clock). The copy is written by
// whoever parsed the TOML (best effort: a store that cannot be written just
// keeps none), never under the store's lock, and never read by a writer,
// which always parses config.toml itself.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "store/config.hpp"

namespace cudaenv {

// config.toml's content, from the copy when it is current, else parsed
// (and the copy written). Errors as Config::load. `text`, when given, gets
// the text it was read from ("" when there is no config.toml).
Config load_config_cached(const std::filesystem::path& config_file, const std::filesystem::path& cache_file,
                          std::string* text = nullptr);

// The copy's content when it was made from config.toml text `toml`; nullopt
// when it is missing, damaged or of another text.
std::optional<Config> read_config_cache(const std::filesystem::path& cache_file, std::string_view toml);
// Writes the copy of `c`, parsed from `toml` (best effort).
void write_config_cache(const std::filesystem::path& cache_file, std::string_view toml, const Config& c);

}  // namespace cudaenv
