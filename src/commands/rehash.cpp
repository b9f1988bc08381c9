// cudaenv rehash: bring the tool shims in <store>/shims up to date with the
// known toolkits (also run by add and discover --add).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "store/rehash.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

void run_rehash(Context& ctx, bool quiet) {
    auto r = rehash(ctx.store());
    ctx.refresh_session_shims();
    if (quiet) return;
    std::cout << r.total << " tool shim(s) in " << fsx::to_utf8(r.dir);
    if (!r.added.empty()) std::cout << "; added " << str::join(r.added, ", ");
    if (!r.updated.empty()) std::cout << "; updated " << str::join(r.updated, ", ");
    if (!r.removed.empty()) std::cout << "; removed " << str::join(r.removed, ", ");
    std::cout << "\n";
}

}  // namespace

void register_rehash(CLI::App* cmd, Context& ctx) {
    auto quiet = std::make_shared<bool>(false);
    cmd->add_flag("-q,--quiet", *quiet, "Print nothing");
    cmd->footer("Put the shims folder on PATH (`cudaenv setup` does) and IDEs, CMake and scripts that never\n"
                "load a shell profile run the tool of the active pair (CUDAENV_VERSION, .cudaenv, global).");
    cmd->callback([&ctx, quiet] { run_rehash(ctx, *quiet); });
}

}  // namespace cudaenv
