#pragma once
// Where a loaded CUDA/cuDNN library came from, in the words both `check` and
// `trace` use: the pair, another pair cudaenv knows, a pip wheel
// (site-packages/nvidia/..., torch/lib), a conda environment, a system folder,
// the driver, or some other folder.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/cudalibs.hpp"
#include "core/version.hpp"

namespace cudaenv {

struct DetectedPair;

namespace origin {

namespace fs = std::filesystem;

enum class Kind { pair, other_pair, pip_wheel, conda, system, driver, other };
// "pair", "other-pair", "pip-wheel", "conda", "system", "driver", "other" (JSON values).
const char* kind_name(Kind k);

// Which part of a pair a library belongs to: core/cudalibs knows the names.
using cudalibs::Family;
using cudalibs::family_of;

// The folders of one pair. A folder the OS shares with everything else (/usr,
// /usr/lib/x86_64-linux-gnu, System32) stands for the pair only for
// libraries of its own family: a system cuDNN's folder does not make every
// CUDA library in it the pair's.
struct PairDirs {
    std::string spec;
    std::vector<fs::path> toolkit_dirs, cudnn_dirs;
    std::optional<Version> toolkit_version, cudnn_version;
};
PairDirs pair_dirs(const std::string& spec, const DetectedPair& pair);

struct Origin {
    Kind kind = Kind::other;
    std::string where;                   // "pip wheel nvidia-cudnn-cu12", "system folder /usr/lib/...", ...
    std::string pair_spec;               // pair / other_pair: the pair's spec
    std::optional<Version> version;      // what the pair's records say the library's version is
    std::string package;                 // pip_wheel: "nvidia-cudnn", "torch"; conda: the environment folder
};

class Classifier {
public:
    Classifier(std::optional<PairDirs> traced, std::vector<PairDirs> others);
    // `path` as the loader reported it; links are followed (a link inside the
    // pair that points elsewhere is not the pair's).
    Origin classify(const fs::path& path) const;

private:
    std::optional<PairDirs> traced_;
    std::vector<PairDirs> others_;
    std::vector<fs::path> system_dirs_;
};

// The pip package a file lies in ("nvidia-cudnn", "torch"), from its path:
// .../site-packages/<package>/..., NVIDIA's wheels under nvidia/<name>; empty
// outside every site-packages or dist-packages folder.
std::string wheel_package(const fs::path& real);

// True when `file` lies inside `dir` (both made canonical; case-insensitive on Windows).
bool under(const fs::path& file, const fs::path& dir);

}  // namespace origin
}  // namespace cudaenv
