#pragma once
// What the pair model reads from wherever toolkits and cuDNNs are kept: the
// records (enough to pick a pair without opening a folder) and the pins. The
// model declares it; the store (store/store.hpp) implements it.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace cudaenv {

// What the inventory knows without opening the folder: enough to pick a pair.
struct ToolkitRecord {
    std::filesystem::path path;
    Version version;
    bool managed = false;  // lives in the store (else adopted, never modified)
    bool shared = false;   // comes from the shared system store (read-only here)
};

struct CudnnRecord {
    std::filesystem::path path;
    std::string variant;
    Version version;
    int cuda_major = 0;
    bool managed = false;
    bool shared = false;  // comes from the shared system store (read-only here)
};

class Inventory {
public:
    virtual ~Inventory() = default;
    // Newest first.
    virtual std::vector<ToolkitRecord> toolkits() = 0;
    virtual std::vector<CudnnRecord> cudnns() = 0;
    // The cuDNN version pinned for this toolkit version, if any.
    virtual std::optional<std::string> pin(const std::string& toolkit_version) = 0;
};

}  // namespace cudaenv
