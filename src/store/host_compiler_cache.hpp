#pragma once
// The host-compiler decision of core/host_compiler.hpp on this machine, kept
// in the store's cache/host_compiler.txt (Store::host_compiler_cache_file):
// keyed by the CUDA release and each PATH folder's stamp, with the compiler
// PATH gave and its stamp, so a switch stats and starts nothing while they hold.
#include <filesystem>
#include <optional>
#include <string>

#include "core/host_compiler.hpp"
#include "store/detect_cache.hpp"

namespace cudaenv {

// choose_host_compiler() on this machine, with the default compiler found on `path` (a PATH list) and its
// version read once per change (above). nullopt when c++ is fine, absent,
// unknown, or no supported compiler is on PATH. `key`, when given, gets what
// the answer holds under: each PATH folder's stamp and the compiler's.
std::optional<HostCompilerChoice> pick_host_compiler(const std::filesystem::path& store_root, const Version& cuda,
                                                     const std::string& path, Stamps* key = nullptr);

}  // namespace cudaenv
