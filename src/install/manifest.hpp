#pragma once
// NVIDIA's redistrib_<version>.json manifests (CUDA and cuDNN).
//   CUDA:  component -> platform -> {relative_path, sha256, md5, size}
//   cuDNN: component -> platform -> "cuda<N>" -> {relative_path, sha256, md5, size}
// Sizes are strings; key order varies; non-object members (name, version,
// cuda_variant, ...) sit next to the platform keys.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudaenv::install {

struct Artifact {
    std::string platform;       // "linux-x86_64", "windows-x86_64", ...
    int cuda_major = 0;         // cuDNN: the "cuda<N>" variant; CUDA components: 0
    std::string relative_path;  // checked: relative, no "..", forward slashes
    std::string sha256;         // lower-case hex
    uint64_t size = 0;
};

struct Component {
    std::string key;      // "cuda_cudart", "libcublas", "cudnn"
    std::string name;     // "CUDA Runtime (cudart)"
    std::string version;  // "12.6.77"
    std::vector<Artifact> artifacts;
    const Artifact* find(const std::string& platform, int cuda_major = 0) const;
};

struct Manifest {
    std::string product;        // "cuda" or "cudnn"
    std::string release_label;  // "12.6.3"
    std::string release_date;
    std::map<std::string, Component> components;

    // Throws cudaenv::Error naming `source` on malformed JSON or entries.
    // `label_hint` (from the file name) stands in for a missing release_label
    // (older CUDA manifests have none); `product_hint` for release_product.
    static Manifest parse(const std::string& text, const std::string& source, const std::string& label_hint = {},
                          const std::string& product_hint = {});
};

// The platform key of this machine ("linux-x86_64", "windows-x86_64", "linux-sbsa").
std::string host_platform();

// The components installed by `cudaenv install <cuda>` when --components is
// not given, in the order they are installed; only those the manifest has.
std::vector<std::string> default_cuda_components(const Manifest& m, const std::string& platform);

}  // namespace cudaenv::install
