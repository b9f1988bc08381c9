#pragma once
// Writing one of the store's cache files (<store>/cache/<name>: detected.txt,
// gpucode.txt, machine.txt): atomically and without waiting for the disk
// (fsx::Durability::cache), and only into a store that exists: a cache never
// creates a store, and one that cannot be written simply keeps no cache.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

namespace cudaenv {

void save_cache_file(const std::filesystem::path& file, std::string_view text);

// Reads a cache file of records (util/records) that starts with `header`,
// keyed by each record's first field: `text` holds the file, `entries` each
// id's record (a view into `text`). A missing, foreign, oversized or torn file
// leaves both empty: it is only a cache.
void load_cache_index(const std::filesystem::path& file, std::string_view header, size_t max_bytes, std::string& text,
                      std::map<std::string, std::string_view>& entries);

}  // namespace cudaenv
