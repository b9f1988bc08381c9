#pragma once
// Jupyter kernelspecs whose argv starts with `cudaenv exec SPEC --`, so the
// pair reaches the kernel however Jupyter, JupyterHub or VS Code start it.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/activation.hpp"
#include "platform/platform.hpp"

namespace cudaenv::exporting {

// Jupyter's folders differ by OS: platform's value names it.
using JupyterOs = platform::Os;
inline JupyterOs this_jupyter_os() { return platform::host_os; }

// Jupyter's user data folder: $JUPYTER_DATA_DIR, else ~/.local/share/jupyter
// ($XDG_DATA_HOME/jupyter) on Linux, ~/Library/Jupyter on macOS,
// %APPDATA%\jupyter on Windows (jupyter_core.paths.jupyter_data_dir).
// Throws when the answer needs `home` and it is empty (HOME not set).
std::filesystem::path jupyter_data_dir(const EnvReader& env, JupyterOs os, const std::filesystem::path& home);
// Where kernelspecs go: <data>/kernels, or <prefix>/share/jupyter/kernels.
std::filesystem::path kernels_dir(const EnvReader& env, const std::optional<std::filesystem::path>& prefix);

// Throws a clear error for a name Jupyter would not accept (it allows
// letters, digits, '.', '_' and '-'), path separators named first.
void check_kernel_name(const std::string& name);

struct KernelSpec {
    // `spec`: the exact pair (the unique spec `list` shows), so a cuDNN added
    // later does not change what the kernel runs with.
    std::string name, display_name, spec, python, cudaenv;
    std::filesystem::path dir;
    // Set for the kernel ("env" in kernel.json): the store and system store
    // when they are not where cudaenv looks by default (CUDAENV_ROOT, CUDAENV_SYSTEM_ROOT).
    std::vector<std::pair<std::string, std::string>> env;
};

// Writes <dir>/<name>/kernel.json (through links, util/user_file); refuses
// to replace a kernelspec cudaenv did not write.
void write_kernel(const KernelSpec& k);
// cudaenv's kernelspecs in `dir`.
std::vector<KernelSpec> list_kernels(const std::filesystem::path& dir);
// Removes kernel.json of a kernelspec cudaenv wrote (and the folder when
// nothing else is left in it); refuses any other, and a kernel folder or
// kernel.json that is a link (removing through it would delete what it
// points to).
void remove_kernel(const std::filesystem::path& dir, const std::string& name);

}  // namespace cudaenv::exporting
