#pragma once
// Detection results kept in the store, so switching costs the same however
// much is adopted: `use`, `env`, `exec`, `hook-env` and the tool shim read
// <store>/cache/detected.txt and stat a few paths instead of listing
// folders of thousands of files and reading ELF files.
//
// The file holds one record per folder (util/records.hpp: length-prefixed
// fields, read without a parser), and a lookup decodes only its own. Each
// entry carries a validation key: the mtime (and, for files, the size)
// of every folder and file detection looked at or found (the folder itself,
// bin, lib64, lib, include, version.json, the version header, the library
// folders, a pip site-packages). Adding or removing a file changes its
// folder's mtime; rewriting a file changes its own. A changed key means
// detect again. `refresh` forgets every entry (list --refresh, check).
#include <deque>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/detect.hpp"
#include "store/stamps.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

class Store;
namespace records {
class Fields;
}

// A detection result as record fields ("toolkit" or "cudnn", then its
// fields), and back (the decoders start after that first field; they throw
// std::out_of_range on damaged fields). Also used by store/activation_cache.
std::vector<std::string> encode(const Toolkit& t);
std::vector<std::string> encode(const Cudnn& c);
Toolkit decode_toolkit(records::Fields& f);
Cudnn decode_cudnn(records::Fields& f);
// The next field as a Version (throws std::out_of_range when it is not one).
Version take_version(records::Fields& f);


class DetectionCache final : public FolderDetector {
public:
    // Loads the store's cache/detected.txt (Store::detection_cache_file; an unreadable or foreign file is an empty cache).
    explicit DetectionCache(fs::path store_root);
    // A cache in memory only (nothing read or written).
    DetectionCache() = default;
    explicit DetectionCache(Store& store);
    ~DetectionCache() override;  // saves when something changed (best effort)
    DetectionCache(const DetectionCache&) = delete;
    DetectionCache& operator=(const DetectionCache&) = delete;

    std::optional<Toolkit> toolkit(const fs::path& dir) override;
    std::optional<Cudnn> cudnn(const fs::path& dir, const std::string& variant) override;

    // Forget every entry: the next lookups detect again.
    void refresh();
    // Forget what is kept for one folder (as toolkit and as cuDNN build `variant`).
    void forget(const fs::path& dir, const std::string& variant = {});
    // Writes the file atomically when something changed; a store that
    // cannot be written just keeps no cache.
    void save();

    // For tests and the benchmark: how many lookups detected from disk.
    int detections() const { return detections_; }

    // From now on every lookup appends to `sink` the key its answer holds
    // under, so that a result built on the answers can be kept under the
    // same key (store/activation_cache.hpp). nullptr stops it.
    void watch(Stamps* sink) { watch_ = sink; }

private:
    fs::path file_;
    std::string text_;                  // the file as read
    std::deque<std::string> owned_;     // records made by this process
    std::map<std::string, std::string_view> entries_;  // id -> its record (in text_ or owned_)
    bool dirty_ = false;
    int detections_ = 0;
    Stamps* watch_ = nullptr;

    // The fields of the detection result kept for `id`, while its key holds.
    std::optional<std::vector<std::string_view>> valid(const std::string& id) const;
    // The kept result for `id` (hit: one was kept, possibly "none there").
    template <class T, class Decode>
    std::optional<T> kept(const std::string& id, std::string_view kind, Decode decode, bool& hit) const;
    // Detects with `detect` and keeps the result under the stamps of key_paths(result).
    template <class T, class Detect, class KeyPaths>
    std::optional<T> detect_and_keep(const std::string& id, Detect detect, KeyPaths key_paths);
    void put(const std::string& id, const Stamps& key, const std::vector<std::string>& data);
};

// `list --refresh`: every folder of the store detected again, and kept.
void detect_again(Store& store);

}  // namespace cudaenv
