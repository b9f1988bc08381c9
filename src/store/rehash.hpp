#pragma once
// Tool shims: <store>/shims holds one copy (hard link where the file system
// allows it) of the native shim program per executable of every known
// toolkit that is one of NVIDIA's toolkit programs (src/data/toolkit_tools.txt),
// named like the tool (nvcc, on Windows nvcc.exe). The shim finds
// the active pair itself and execs the real tool (see shims/shim.cpp).
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/pathlist.hpp"
#include "store/store.hpp"

namespace cudaenv {

// A text every build of the shim program contains (its usage message), so
// rehash can tell its own shims from anything else in the folder.
inline constexpr const char* shim_marker = "cudaenv-shim: the cudaenv tool shim";

struct RehashResult {
    std::filesystem::path dir;
    std::vector<std::string> added, updated, removed;  // file names in dir
    size_t total = 0;                                   // shims there now
};

// The shim program: cudaenv-shim[.exe] beside the running cudaenv executable.
std::filesystem::path shim_program_path();

// The programs NVIDIA's toolkit components put in bin (without .exe).
const std::set<std::string>& nvidia_tool_names();
// What a program's file name stands for: "nvcc" for nvcc, and under Windows
// rules for nvcc.exe in any case; "" when it is none of NVIDIA's tools or,
// under Windows rules, not an .exe. `file` need not exist.
std::string toolkit_tool_of(const std::filesystem::path& file, PathStyle style);
// The name a shim is run under, without .exe under Windows rules.
std::string tool_name_of(const std::filesystem::path& argv0, PathStyle style);
// Where a shell finds `tool` in `dirs` (`cudaenv which`): the first folder
// with an executable `tool`, or under Windows rules also `tool`.exe.
std::optional<std::filesystem::path> find_tool_in(const std::vector<std::filesystem::path>& dirs,
                                                  const std::string& tool, PathStyle style);

// The tool names (without .exe) of NVIDIA's programs in every known
// toolkit's bin folders, each once. Toolkits whose folder has gone are skipped.
std::set<std::string> toolkit_tools(Store& store);

// Brings <store>/shims up to date with `program`: adds missing shims,
// replaces ones that are not this build, removes shims of tools no toolkit
// has any more. Never touches the session shims (cudaenv.ps1, cudaenv.cmd)
// or anything that is not a shim. Throws Error when the program is missing
// or the folder cannot be written.
RehashResult rehash(Store& store, const std::filesystem::path& program);
// The same with shim_program_path().
RehashResult rehash(Store& store);

// For commands that changed the set of toolkits (add, discover --add,
// install, uninstall): shims are a convenience, so a failure is a warning
// on stderr, not an error. Returns false when it warned.
bool rehash_or_warn(Store& store);

}  // namespace cudaenv
