#pragma once
// What a folder was found to hold (store/adopt inspect_folder, store/discover,
// WSL's filter in core/wsl): a toolkit or one cuDNN build, with its version.
#include <filesystem>
#include <string>

#include "core/version.hpp"

namespace cudaenv {

struct Found {
    enum class Kind { toolkit, cudnn } kind;
    std::filesystem::path path;
    std::string variant;
    Version version;
    int cuda_major = 0;     // cuDNN: the CUDA major it was built for
    std::string layout;     // its layout's name (core/layout)
    bool known = false;     // already in the store or adopted
};

}  // namespace cudaenv
