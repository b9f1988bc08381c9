#pragma once
// `cudaenv setup --python <interpreter or venv>` (docs/python.md): the DLL
// hook of one Python environment, a .pth line in its site-packages that
// imports cudaenv's module (python/cudaenv_dll_hook.py, embedded at build
// time), which on Windows adds the active pair's DLL folders
// (CUDAENV_DLL_DIRS) with os.add_dll_directory. setup_actions writes and
// removes the files; this finds the environment and gives their bytes.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv {

inline constexpr const char* python_hook_module = "cudaenv_dll_hook";

struct PythonEnvironment {
    std::string interpreter;                     // absolute (UTF-8)
    std::filesystem::path site_packages;         // sysconfig's purelib
    std::string cache_tag;                       // "cpython-311"
    int major = 0, minor = 0;
};

// The interpreter `arg` names (a file; a venv or installation folder, whose
// Scripts\python.exe or bin/python3 it takes; or a name on `path`), asked
// for its site-packages: it is run once (-I: no user site, no PYTHON*
// variables). Throws Error when it cannot be found or does not answer.
PythonEnvironment find_python_environment(const std::string& arg, const std::filesystem::path& cwd,
                                          const std::string& path);

// The files setup puts into site-packages: the .pth (its import line) and
// the module, by name, with their bytes.
std::vector<std::pair<std::string, std::string>> python_hook_files();

// Has the interpreter write the module's bytecode now (py_compile), so no
// start has to compile it, not even where Python may not write bytecode
// itself (PYTHONDONTWRITEBYTECODE, a site-packages its users cannot write).
// False when it could not (the hook works all the same).
bool compile_python_hook(const PythonEnvironment& py);

// The .pth's file name ("cudaenv_dll_hook.pth"): doctor looks for it.
std::string python_hook_pth();

}  // namespace cudaenv
