#pragma once
// A mirror with NVIDIA's layout: <base>/cuda/redist/redistrib_<ver>.json,
// <base>/cudnn/redist/redistrib_<ver>.json, archives at <base>/<product>/redist/<relative_path>.
// <base> is a folder (offline mirror) or an http(s) URL (libcurl).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::install {

namespace fs = std::filesystem;

inline constexpr const char* kDefaultMirror = "https://developer.download.nvidia.com/compute";

class Mirror {
public:
    // A URL (http://, https://), file:// URL or a folder path (made absolute).
    explicit Mirror(const std::string& location);

    bool is_remote() const { return remote_; }
    const std::string& location() const { return location_; }

    // Release versions with a manifest, newest first. `product` is "cuda" or "cudnn".
    std::vector<Version> releases(const std::string& product) const;
    // The manifest text for one release.
    std::string manifest_text(const std::string& product, const std::string& version) const;

    // Where the file at <product>/redist/<rel> is: a URL (remote mirrors)
    // or a path in the mirror folder.
    std::string url_of(const std::string& product, const std::string& rel) const;
    fs::path path_of(const std::string& product, const std::string& rel) const;

private:
    std::string location_;
    fs::path folder_;
    bool remote_ = false;
};

// True for an http(s) URL (a mirror that is downloaded from), false for a folder.
bool is_remote_location(const std::string& location);

// Which mirror to use: --mirror, else CUDAENV_MIRROR, else config.toml's
// `mirror`, else `fallback` (NVIDIA's; sync passes "" to use the lock's).
std::string choose_mirror(const std::string& flag, const std::optional<std::string>& env,
                          const std::optional<std::string>& config, const std::string& fallback = kDefaultMirror);

}  // namespace cudaenv::install
