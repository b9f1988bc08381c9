#pragma once
// Data files from src/data/ and shell code from shell/, compiled into the
// binary by cmake/Embed.cmake.
#include <optional>
#include <string_view>

namespace cudaenv::embedded {
// The bytes of src/data/<name> or of shell/<name> ("bash/init.bash"), or nullopt.
std::optional<std::string_view> find(std::string_view name);
}
