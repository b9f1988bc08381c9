#include "platform/install_dirs.hpp"

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

// CMake passes the path from the programs' folder to the private library
// folder of the install layout ("../lib/x86_64-linux-gnu/cudaenv" for Debian's
// bin/, "lib/cudaenv" for the flat Windows zip); see cmake/Packaging.cmake.
#ifndef CUDAENV_BIN_TO_PRIVLIB
#define CUDAENV_BIN_TO_PRIVLIB "../lib/cudaenv"
#endif

namespace cudaenv::platform {

std::filesystem::path private_lib_dir_for(const std::filesystem::path& exe) {
    auto dir = exe.parent_path();
    auto installed = (dir / fsx::from_utf8(CUDAENV_BIN_TO_PRIVLIB)).lexically_normal();
    for (const auto& candidate : {installed, (dir / "lib" / "cudaenv").lexically_normal()})
        if (fsx::is_dir(candidate)) return candidate;
    return installed;
}

std::filesystem::path private_lib_dir() { return private_lib_dir_for(executable_path()); }

std::string private_lib_from_bin() { return CUDAENV_BIN_TO_PRIVLIB; }

std::filesystem::path sibling_program(const std::string& name) {
    return executable_path().parent_path() / fsx::from_utf8(name + exe_suffix());
}

std::filesystem::path required_sibling_program(const std::string& name, const std::string& what) {
    auto program = sibling_program(name);
    if (!is_executable(program))
        throw Error(what + " '" + fsx::to_utf8(program) + "' is missing",
                    "reinstall cudaenv: " + name + " belongs beside the cudaenv executable");
    return program;
}

}  // namespace cudaenv::platform
