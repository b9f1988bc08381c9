#pragma once
// config.toml in the store: the global default, pins, adopted (external)
// folders and settings. Read with toml++; written atomically; a corrupt file
// is an error that names file and line and is never overwritten.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace cudaenv {

struct ExternalToolkit {
    std::string path;  // UTF-8, absolute
    Version version;
};

struct ExternalCudnn {
    std::string path;
    std::string variant;  // Windows installer subfolder ("12.9"), else empty
    Version version;
    int cuda_major = 0;
};

struct Config {
    std::optional<std::string> global;             // a spec
    std::optional<std::string> mirror;             // install mirror (folder or URL)
    std::map<std::string, std::string> pins;       // toolkit version -> cuDNN version
    std::vector<ExternalToolkit> toolkits;
    std::vector<ExternalCudnn> cudnns;

    // A missing file is an empty config; a malformed one throws Error
    // ("<file>:<line>:<col>: <reason>").
    static Config load(const std::filesystem::path& file);
    std::string to_toml() const;
    void save(const std::filesystem::path& file) const;
};

}  // namespace cudaenv
