#pragma once
// Reads the DT_NEEDED names of a 64-bit little-endian ELF shared library, so
// detection can tell which CUDA major a cuDNN library was linked against.
#include <filesystem>
#include <string>
#include <vector>

namespace cudaenv::elf {
// Empty when the file is not a readable ELF64 LE object.
std::vector<std::string> needed_libraries(const std::filesystem::path& file);
}
