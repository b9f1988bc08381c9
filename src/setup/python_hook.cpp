#include "setup/python_hook.hpp"

#include <chrono>

#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

namespace {

// Prints purelib (as the OS's file-system bytes), the bytecode cache tag and
// the version, one per line. Runs under every Python 3.
constexpr const char* ask =
    "import os,sys,sysconfig\n"
    "sys.stdout.buffer.write(b'\\n'.join([os.fsencode(sysconfig.get_path('purelib')),"
    "(sys.implementation.cache_tag or '').encode(),('%d.%d' % sys.version_info[:2]).encode()]))\n";

std::optional<fs::path> interpreter_in(const fs::path& dir) {
    for (const auto& n : platform::environment_interpreters())
        if (fsx::is_file(dir / n)) return dir / n;
    return std::nullopt;
}

// "bin/python3 or bin/python", as the OS writes them.
std::string interpreter_names() {
    std::string out;
    for (const auto& n : platform::environment_interpreters()) out += (out.empty() ? "" : " or ") + fsx::to_utf8(n);
    return out;
}

}  // namespace

PythonEnvironment find_python_environment(const std::string& arg, const fs::path& cwd, const std::string& path) {
    if (arg.empty()) throw UsageError("--python needs an interpreter or an environment's folder", "e.g. cudaenv setup --python .venv");
    fs::path interp;
    auto given = fsx::from_utf8(arg);
    const bool has_sep = arg.find_first_of(platform::path_separators) != std::string::npos;
    if (fsx::is_dir(cwd / given)) {
        auto found = interpreter_in(cwd / given);
        if (!found)
            throw Error("'" + str::visible(arg) + "' is a folder without " + interpreter_names(),
                        "name the environment's folder or its interpreter");
        interp = *found;
    } else if (fsx::is_file(cwd / given)) {
        interp = cwd / given;
    } else if (!has_sep) {
        auto found = platform::find_on_path(arg, path);
        if (!found) throw Error("no '" + str::visible(arg) + "' on PATH", "name the interpreter or the environment's folder");
        interp = fsx::from_utf8(*found);
    } else {
        throw Error("no Python at '" + str::visible(arg) + "'", "name the interpreter or the environment's folder");
    }
    PythonEnvironment env;
    env.interpreter = fsx::to_utf8(fsx::absolute_normal(interp));
    auto pr = platform::run_process({env.interpreter, "-I", "-c", ask}, platform::environment(), std::chrono::seconds(60));
    auto lines = str::split(pr.out, '\n');
    if (!pr.started || pr.exit_code != 0 || lines.size() != 3)
        throw Error("'" + str::visible(env.interpreter) + "' did not say where its site-packages is" +
                        (pr.started ? "" : ": " + pr.error),
                    "name a Python 3 interpreter or an environment made with `python -m venv`");
    env.site_packages = fsx::from_utf8(lines[0]);
    env.cache_tag = lines[1];
    auto dot = lines[2].find('.');
    if (!env.site_packages.is_absolute() || dot == std::string::npos || !str::parse_int(lines[2].substr(0, dot), env.major) ||
        !str::parse_int(lines[2].substr(dot + 1), env.minor))
        throw Error("'" + str::visible(env.interpreter) + "' gave an odd answer for its site-packages: '" +
                        str::visible(lines[0]) + "'",
                    "name a Python 3 interpreter or an environment made with `python -m venv`");
    return env;
}

std::string python_hook_pth() { return std::string(python_hook_module) + ".pth"; }

std::vector<std::pair<std::string, std::string>> python_hook_files() {
    auto module = embedded::find(std::string(python_hook_module) + ".py");
    if (!module) throw Error("this build has no python/" + std::string(python_hook_module) + ".py");
    // Python runs a .pth line that starts with `import`; `#` starts a comment.
    // The module is imported only where it has work to do (the variable set,
    // os.add_dll_directory there): every other start pays for one lookup.
    std::string pth =
        "# cudaenv setup --python: on Windows, Python finds the DLLs of the pair `cudaenv use` activates "
        "(CUDAENV_DLL_DIRS); `cudaenv setup --undo` removes this.\n"
        "import os; os.environ.get(\"CUDAENV_DLL_DIRS\") and hasattr(os, \"add_dll_directory\") and __import__(\"" +
        std::string(python_hook_module) + "\")\n";
    return {{python_hook_pth(), pth}, {std::string(python_hook_module) + ".py", std::string(*module)}};
}

bool compile_python_hook(const PythonEnvironment& py) {
    const auto module = fsx::to_utf8(py.site_packages / (std::string(python_hook_module) + ".py"));
    auto pr = platform::run_process({py.interpreter, "-I", "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)",
                                     module},
                                    platform::environment(), std::chrono::seconds(60));
    return pr.started && pr.exit_code == 0;
}

}  // namespace cudaenv
