// The tool shim. `cudaenv rehash` copies this one program into
// <store>/shims under the name of every toolkit tool (nvcc, ptxas, ...). Run
// as `nvcc`, it finds the active pair exactly as `cudaenv current` does
// (CUDAENV_VERSION, the nearest .cudaenv / .tool-versions, the global
// default), then replaces itself with the pair's real nvcc in the pair's
// environment, so arguments, standard streams, exit status and signals pass
// through untouched. It asks no other process: IDEs and build tools call it
// thousands of times, so it only reads the config and a few folders.
#include <iostream>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "store/activation_cache.hpp"
#include "core/pairs.hpp"
#include "store/rehash.hpp"
#include "core/resolve.hpp"
#include "store/store.hpp"
#include "gpu/pair_code.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/report.hpp"

namespace cudaenv {

namespace {

constexpr int not_found = 127;  // what shells answer for a command they cannot find

// "nvcc" from "/home/u/.local/share/cudaenv/shims/nvcc" (or "...\nvcc.exe").
std::string tool_of(const std::string& argv0) { return tool_name_of(fsx::from_utf8(argv0), native_path_style()); }

std::optional<fs::path> find_tool(const std::vector<fs::path>& dirs, const std::string& tool) {
    for (const auto& d : dirs) {
        auto p = d / fsx::from_utf8(tool + platform::exe_suffix());
        if (platform::is_executable(p)) return p;
    }
    return std::nullopt;
}

// The environment of this process with `changes` applied.
EnvBlock with_changes(const std::vector<EnvChange>& changes) {
    auto env = platform::environment();
    apply_changes(env, changes, native_path_style());
    return env;
}

// `system`, or a pair without this tool: the next `tool` on PATH once the
// shims folder is taken out of it (also for the tool's own children, so
// nothing loops back into a shim). `why` says what was active, for the error.
int run_next_on_path(const std::string& tool, std::vector<std::string> args, Store& store, const std::string& why) {
    auto style = native_path_style();
    auto shims = fsx::to_utf8(store.shims_dir());
    auto self = platform::executable_path();
    std::vector<std::string> kept;
    for (const auto& e : split_path_list(platform::get_env("PATH").value_or(""), style))
        if (!same_path_entry(e, shims, style)) kept.push_back(e);
    std::optional<fs::path> found;
    for (const auto& e : kept) {
        if (e.empty()) continue;
        auto candidate = find_tool({fsx::from_utf8(e)}, tool);
        std::error_code ec;
        // A shim reached through another spelling of the folder would call itself.
        if (candidate && !fs::equivalent(*candidate, self, ec)) {
            found = candidate;
            break;
        }
    }
    if (!found)
        throw Error(tool + ": no " + tool + " on PATH outside cudaenv's shims, and " + why,
                    "pick a pair: `cudaenv use <spec>`, `cudaenv local <spec>` or `cudaenv global <spec>` "
                    "(`cudaenv list` shows them)",
                    not_found);
    args[0] = fsx::to_utf8(*found);
    return platform::exec_command(args, with_changes({{"PATH", join_path_list(kept, style)}}));
}

int run_shim(std::vector<std::string> args) {
    const auto tool = tool_of(args.at(0));
    Store store(platform::default_store_root());
    ActiveSpec active;
    try {
        active = resolve_active(platform::current_dir(), platform::get_env("CUDAENV_VERSION"), store.config().global);
    } catch (const Error& e) {
        throw Error(tool + ": " + e.what(), e.hint());
    }
    if (active.spec.system)
        return run_next_on_path(tool, std::move(args), store,
                                "the active pair is system (set by " + active.describe() + ")");

    Activation plan;
    try {
        plan = plan_activation(store, active.spec, [](const std::string& n) { return platform::get_env(n); },
                               native_path_style());
    } catch (const Error& e) {
        throw Error(tool + ": " + e.what() + " (set by " + active.describe() + ")", e.hint());
    }
    auto dirs = plan.folders->toolkit.bin_dirs;
    if (plan.folders->cudnn) dirs.insert(dirs.end(), plan.folders->cudnn->bin_dirs.begin(), plan.folders->cudnn->bin_dirs.end());
    auto path = find_tool(dirs, tool);
    // A tool this pair lacks (another toolkit's, or one the user put beside it) is not ours to break.
    if (!path)
        return run_next_on_path(tool, std::move(args), store,
                                "CUDA " + plan.full_spec + " has none (set by " + active.describe() + ")");
    args[0] = fsx::to_utf8(*path);
    gpu::warn_if_cannot_run(store.root(), plan.folders, &plan.diff);
    return platform::exec_command(args, plan.applied_to(platform::environment(), native_path_style()));
}

}  // namespace

}  // namespace cudaenv

int main(int argc, char** argv) {
    using namespace cudaenv;
    platform::init_console();
    auto args = platform::utf8_args(argc, argv);
    if (args.empty() || tool_of(args[0]) == "cudaenv-shim") {
        std::cerr << shim_marker
                  << ".\nIt is not run by this name: `cudaenv rehash` copies it into the store's shims folder as nvcc,\n"
                     "ptxas, ..., and each one runs that tool of the active pair (see `cudaenv current`).\n";
        return 2;
    }
    try {
        return run_shim(std::move(args));
    } catch (const Error& e) {
        print_error(e.what(), e.hint());
        return e.exit_code();
    } catch (const std::exception& e) {
        print_error(tool_of(args.at(0)) + ": " + e.what());
        return 1;
    }
}
