#pragma once
// What each framework release needs from a pair: the [[framework_build]] rows
// of src/data/framework_builds.toml (TensorFlow, PyTorch wheels, ONNX Runtime, CuPy,
// JAX, PaddlePaddle), and the choice of an installed pair for `--for`.
#include <optional>
#include <string>
#include <vector>

#include "core/pairs.hpp"
#include "core/version.hpp"

namespace cudaenv {

struct FrameworkBuild {
    std::string name;                 // the distribution: tensorflow, torch, onnxruntime-gpu, ...
    std::optional<Version> lo, hi;    // framework versions covered (by their leading fields); none: all
    std::string variant;              // torch wheels: cu118, cu121, ...
    std::vector<std::string> os;      // "linux", "windows": systems with a GPU build
    std::vector<std::string> no_gpu_on;
    std::string no_gpu_hint;
    std::optional<Version> cuda, cudnn;
    std::string loads;                // search-path, wheels, torch-lib, cuda-path
    std::string source;
    bool unconfirmed = false;

    bool covers(const Version& v) const;
    // "CUDA 11.2 + cuDNN 8.1"
    std::string needs() const;
};

// The rows from the compatibility data (parsed from `text` when given);
// throws Error naming the row for a malformed one.
std::vector<FrameworkBuild> framework_builds(const std::optional<std::string>& text = std::nullopt);

struct FrameworkRequest {
    std::string name;
    std::string version_text;  // as given: "2.10", "2.5.1+cu121"
    Version version;
    std::string variant;       // "cu121" from a local version tag
};

// "tensorflow==2.10" (also "torch==2.5.1+cu121"); throws UsageError.
FrameworkRequest parse_framework_request(const std::string& text);

// The row for the request on `os` ("linux", "windows"). Throws Error for an
// unknown framework or version, and for a version with no GPU build on `os`
// (with the way out as the hint).
const FrameworkBuild& framework_build_for(const std::vector<FrameworkBuild>& rows, const FrameworkRequest& req,
                                          const std::string& os);

struct PairChoice {
    Pair pair;
    std::string why;  // one sentence
};

// The installed pair that fits `build` best: the same CUDA major.minor and
// cuDNN major.minor first, then the same majors with newer minors (CUDA minor
// compatibility; cuDNN keeps its ABI within a major); nullopt when none fits.
std::optional<PairChoice> choose_pair(const FrameworkBuild& build, const std::vector<Pair>& pairs);

std::string host_os_name();

}  // namespace cudaenv
