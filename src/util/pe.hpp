#pragma once
// Reads the names of the DLLs a Windows PE file (DLL or EXE, 32 or 64 bit)
// imports, so that a failed LoadLibrary (error 126, "module not found") can
// say which dependency is missing: Windows itself never names it.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "util/binary_file.hpp"

namespace cudaenv::pe {
// Names from the import directory, as written ("cudart64_110.dll"); delay-loaded
// DLLs are not listed (they cannot make loading fail). Empty when the file is
// not a readable PE image.
std::vector<std::string> imported_dlls(const std::filesystem::path& file);

// The section table (`recognised`: a PE image at all), read with bounded
// reads (as elf::sections). PE section names are 8 bytes: a longer name is
// cut (".nv_fatb") or, from GNU tools, "/<n>" pointing into a string table.
SectionTable sections(const std::filesystem::path& file);
}
