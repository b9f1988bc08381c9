// cudaenv which <tool>: the absolute path of a tool in the active pair.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "store/rehash.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_which(Context& ctx, const std::string& tool) {
    if (tool.find_first_of("/\\") != std::string::npos) throw UsageError("give a tool name, not a path: " + tool);
    auto active = ctx.active();
    std::string spec;
    auto pair = ctx.pair_for(active.spec, &spec);
    std::vector<fs::path> dirs;
    if (pair) {
        dirs = pair->toolkit.bin_dirs;
        if (pair->cudnn) dirs.insert(dirs.end(), pair->cudnn->bin_dirs.begin(), pair->cudnn->bin_dirs.end());
    } else {
        // system: whatever PATH has, without cudaenv's own shims.
        auto shims = ctx.store().shims_dir();
        for (const auto& e : split_path_list(platform::get_env("PATH").value_or(""), native_path_style()))
            if (!e.empty() && !same_path_entry(e, fsx::to_utf8(shims), native_path_style()))
                dirs.push_back(fsx::from_utf8(e));
    }
    auto found = find_tool_in(dirs, tool, native_path_style());
    if (!found)
        throw Error("'" + tool + "' is not in " + (pair ? "CUDA " + spec : std::string("the system PATH")) +
                        " (set by " + active.describe() + ")",
                    "`cudaenv list` shows the pairs; the toolkit may lack that component");
    std::cout << fsx::to_utf8(*found) << "\n";
}

}  // namespace

void register_which(CLI::App* cmd, Context& ctx) {
    auto tool = std::make_shared<std::string>();
    cmd->add_option("tool", *tool, "e.g. nvcc")->required();
    cmd->callback([&ctx, tool] { run_which(ctx, *tool); });
}

}  // namespace cudaenv
