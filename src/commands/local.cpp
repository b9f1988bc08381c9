// cudaenv local <spec> | --unset: write or remove .cudaenv in the current folder.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/for_framework.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_local(Context& ctx, const std::string& spec_text, bool unset) {
    auto file = ctx.cwd() / ".cudaenv";
    // A folder named .cudaenv is not ours to remove or replace.
    std::error_code st_ec;
    if (fs::is_directory(fs::symlink_status(file, st_ec)))
        throw Error("'" + fsx::to_utf8(file) + "' is a folder, not a version file",
                    "cudaenv reads and writes only a file named .cudaenv; rename or remove the folder yourself");
    if (unset) {
        std::error_code ec;
        if (!std::filesystem::remove(file, ec)) {
            if (ec) throw Error("cannot remove '" + fsx::to_utf8(file) + "': " + ec.message());
            std::cerr << "cudaenv: no .cudaenv in " << fsx::to_utf8(ctx.cwd()) << "\n";
        }
        return;
    }
    if (spec_text.empty()) {
        // Like pyenv: without arguments, show what is set here.
        auto vf = find_version_file(ctx.cwd());
        if (!vf) throw Error("no .cudaenv in this folder or above", "set one with `cudaenv local <spec>`");
        std::cout << vf->spec.str() << "\n";
        return;
    }
    auto spec = Spec::parse_or_throw(spec_text);
    if (!spec.system) select_pair(spec, ctx.store());  // refuse a spec that matches nothing installed
    fsx::write_file_atomic(file, spec.str() + "\n");
}

}  // namespace

void register_local(CLI::App* cmd, Context& ctx) {
    auto spec = std::make_shared<std::string>();
    auto unset = std::make_shared<bool>(false);
    auto for_opts = std::make_shared<ForOptions>();
    cmd->add_option("spec", *spec, "The spec to write");
    cmd->add_flag("--unset", *unset, "Remove .cudaenv from this folder");
    add_for_options(cmd, *for_opts);
    cmd->callback([&ctx, spec, unset, for_opts] {
        if (!for_opts->for_text.empty()) {
            if (!spec->empty()) throw UsageError("give a spec or --for, not both");
            *spec = spec_for_framework(ctx.store(), *for_opts);
        }
        run_local(ctx, *spec, *unset);
    });
}

}  // namespace cudaenv
