#pragma once
// Reads the DT_NEEDED names of a 64-bit little-endian ELF shared library, so
// detection can tell which CUDA major a cuDNN library was linked against, and
// its section table (where the GPU code of a CUDA library lies).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/binary_file.hpp"

namespace cudaenv::elf {
// Empty when the file is not a readable ELF64 LE object.
std::vector<std::string> needed_libraries(const std::filesystem::path& file);

// The dynamic section's names: what `trace` needs to tell why the loader
// searched a folder (DT_RPATH is searched before LD_LIBRARY_PATH, DT_RUNPATH after),
// and the program's loader (PT_INTERP, "" for a library), which `export
// dockerfile` copies with the libraries a program needs.
struct Dynamic {
    std::vector<std::string> needed;
    std::string soname, rpath, runpath, interpreter;
};
// nullopt when the file is not a readable ELF64 LE object with a dynamic section.
std::optional<Dynamic> dynamic_section(const std::filesystem::path& file);

// The section table (`recognised`: an ELF64 little-endian object at all),
// read with bounded reads: a table or a section that points past the end of
// the file is a problem, never a read beyond it.
SectionTable sections(const std::filesystem::path& file);

// Whether the ELF64 object that fills [base, base + size) of `file` (a cubin
// inside a fatbin) has a code section: ".text" anywhere in its section-name
// table, so a name kept only as the tail of ".rel.text.k" counts too. nullopt
// when it cannot tell (not ELF64, a table outside [base, base + size), a name
// table over 1 MiB); callers take that as "it may".
std::optional<bool> has_text_section(BinaryFile& file, uint64_t base, uint64_t size);
}
