#pragma once
// Reads the DT_NEEDED names of a 64-bit little-endian ELF shared library, so
// detection can tell which CUDA major a cuDNN library was linked against, and
// its section table (where the GPU code of a CUDA library lies).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudaenv::elf {
// Empty when the file is not a readable ELF64 LE object.
std::vector<std::string> needed_libraries(const std::filesystem::path& file);

// The dynamic section's names: what `trace` needs to tell why the loader
// searched a folder (DT_RPATH is searched before LD_LIBRARY_PATH, DT_RUNPATH after).
struct Dynamic {
    std::vector<std::string> needed;
    std::string soname, rpath, runpath;
};
// nullopt when the file is not a readable ELF64 LE object with a dynamic section.
std::optional<Dynamic> dynamic_section(const std::filesystem::path& file);

// A section with bytes in the file (SHT_NOBITS ones are left out).
struct Section {
    std::string name;
    uint64_t offset = 0, size = 0;
};
struct Sections {
    bool is_elf = false;      // an ELF64 little-endian object at all
    std::string problem;      // why the table could not be read ("" when it was)
    std::vector<Section> list;
};
// The section table, read with bounded reads: a table or a section that
// points past the end of the file is a problem, never a read beyond it.
Sections sections(const std::filesystem::path& file);
}
