#pragma once
// config.toml in the store: the global default, pins, adopted (external)
// folders and settings. Type, reader and writer of the file. Read with toml++
// after bounding the text (util/toml_limits.hpp); written atomically and
// durably, only under the store's lock (Store::lock); a corrupt file is an
// error that names file and line and is never overwritten.
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
    // "auto": `use` and the auto-switch hook also enter the newest Visual
    // Studio toolset the pair's nvcc accepts (Windows; docs/msvc.md); "off".
    std::optional<std::string> msvc;
    std::map<std::string, std::string> pins;       // toolkit version -> cuDNN version
    std::vector<ExternalToolkit> toolkits;
    std::vector<ExternalCudnn> cudnns;
    // What was read but not as written: a `mirror` or `global` line below
    // [pins] (the old docs said to append it), read as the setting. Store
    // prints each as a warning; the next write of config.toml puts it on top.
    std::vector<std::string> warnings;

    // A missing file is an empty config; a malformed one throws Error
    // ("<file>:<line>:<col>: <reason>").
    // Odd files (a folder, a looping link, over 16 MiB...) throw Error naming
    // the path and what to do (util/toml_file.hpp).
    static Config load(const std::filesystem::path& file);
    // The text of a config.toml; `file` is only named in errors.
    static Config parse(const std::string& text, const std::filesystem::path& file);
    std::string to_toml() const;
    void save(const std::filesystem::path& file) const;
};

}  // namespace cudaenv
