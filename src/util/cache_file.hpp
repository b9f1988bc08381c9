#pragma once
// Writing one of the store's cache files (<store>/cache/<name>: detected.txt,
// gpucode.txt, machine.txt): atomically and without waiting for the disk
// (fsx::Durability::cache), and only into a store that exists: a cache never
// creates a store, and one that cannot be written simply keeps no cache.
#include <filesystem>
#include <string_view>

namespace cudaenv {

void save_cache_file(const std::filesystem::path& file, std::string_view text);

}  // namespace cudaenv
