#pragma once
// `cudaenv inspect`: the GPU code of a file, of the binaries in a folder, or
// of a pair's libraries, each judged on the machine's GPUs; as table rows or JSON.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gpu/pair_code.hpp"

namespace cudaenv::gpu {

struct Inspection {
    std::string pair_spec;              // "11.8.89+8.9.7" when a pair was inspected
    std::optional<PairVerdict> pair;
    std::vector<LibraryCode> files;
    int problems = 0;                   // files that could not be read as binaries
};

// A file, or every ELF/PE file below a folder (links skipped, at most 6 levels).
Inspection inspect_path(const std::filesystem::path& path, CodeCache& cache, const Machine& m);
Inspection inspect_pair(const DetectedPair& pair, const std::string& spec, CodeCache& cache, const Machine& m);

// "GPU 0 (NVIDIA H200, sm_90); driver 580.159.04 (NVML), CUDA 13.0"
std::string machine_line(const Machine& m);
// LIBRARY, SASS, PTX, RUNS per file.
std::vector<std::vector<std::string>> inspection_rows(const Inspection& in, const Machine& m);
// The pair's verdict, notes and problems, one line each.
std::vector<std::string> inspection_footer(const Inspection& in, const Machine& m);
nlohmann::json inspection_json(const Inspection& in, const Machine& m);
nlohmann::json machine_json(const Machine& m);

}  // namespace cudaenv::gpu
