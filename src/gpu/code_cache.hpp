#pragma once
// What GPU code each library file carries, kept in <store>/cache/gpucode.txt
// (util/records), one record per file under its stamp (mtime and size, as
// store/detect_cache keeps folders): reading it again costs one stat. Also
// keeps which library files a pair's folders hold, under those folders'
// stamps, so `list` judges every pair from the cache without listing a folder,
// and the compatibility table's verdicts, so `list` judges a pair whose
// libraries carry no readable code without parsing the table.
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpu/fatbin.hpp"
#include "gpu/table.hpp"

namespace cudaenv::gpu {

namespace fs = std::filesystem;

class CodeCache {
public:
    // Loads <root>/cache/gpucode.txt (a missing, foreign or damaged file is an empty cache).
    explicit CodeCache(const fs::path& store_root);
    CodeCache() = default;  // in memory only
    ~CodeCache();           // saves when something changed (best effort)
    CodeCache(const CodeCache&) = delete;
    CodeCache& operator=(const CodeCache&) = delete;

    // The file's code: kept while its stamp holds, else read (and kept).
    FileCode file(const fs::path& path);
    // Only what is kept (nullopt when nothing valid is): never reads the file.
    std::optional<FileCode> kept(const fs::path& path) const;

    // The library files kept under `id` while the stamps of `dirs` hold; the
    // second form takes the folders kept with them (list: no folder detected).
    std::optional<std::vector<fs::path>> kept_listing(const std::string& id, const std::vector<fs::path>& dirs) const;
    std::optional<std::vector<fs::path>> kept_listing(const std::string& id) const;
    void keep_listing(const std::string& id, const std::vector<fs::path>& dirs, const std::vector<fs::path>& files);

    // A table verdict kept under `key` (gpu/pair_code.cpp: the question and
    // tables_hash(), so a cudaenv with other tables asks them again).
    std::optional<TableVerdict> kept_table(const std::string& key) const;
    void keep_table(const std::string& key, const TableVerdict& v);

    // Whether files read from now on are kept. `inspect` of a file or folder
    // keeps nothing new: gpucode.txt is read on every `use`, so it holds the
    // files of pairs and wheels, not every binary someone inspected.
    void keep_new_files(bool keep) { keep_new_ = keep; }

    // Writes gpucode.txt when something changed, leaving out the files whose
    // stamp no longer holds (a library replaced or removed).
    void save();
    int reads() const { return reads_; }  // files read from disk (tests, the benchmark)

private:
    fs::path file_;
    std::string text_;
    std::deque<std::string> owned_;
    std::map<std::string, std::string_view> entries_;
    bool dirty_ = false, keep_new_ = true;
    int reads_ = 0;
    void put(const std::string& id, std::string record);
    std::optional<std::vector<fs::path>> kept_listing_of(const std::string& id, const std::vector<fs::path>* dirs) const;
};

// The record fields of a FileCode and back (tests).
std::vector<std::string> encode(const FileCode& c);
FileCode decode_file_code(const std::vector<std::string_view>& fields, size_t first);

}  // namespace cudaenv::gpu
