#pragma once
// Data files from src/data/, compiled into the binary by cmake/Embed.cmake.
#include <optional>
#include <string_view>

namespace cudaenv::embedded {
// The bytes of src/data/<name>, or nullopt.
std::optional<std::string_view> find(std::string_view name);
}
