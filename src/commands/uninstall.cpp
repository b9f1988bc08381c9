// cudaenv uninstall <spec> [--cudnn-only] [--force]: remove a toolkit (and the
// cuDNN a <cuda>+<cudnn> spec names) from the store, or forget an adopted
// external folder without touching it.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/context.hpp"
#include "core/uninstall.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

struct UninstallArgs {
    std::string spec;
    bool force = false;
    bool cudnn_only = false;
    bool quiet = false;
};

void run_uninstall(Context& ctx, const UninstallArgs& args) {
    auto spec = Spec::parse_or_throw(args.spec);
    auto& store = ctx.store();
    // Refuse to pull the active pair out from under the user.
    auto refuse_active = [&](const Removal& r) {
        if (args.force) return;
        auto active = ctx.active();
        if (auto hit = removes_active(r, active.spec, store))
            throw Error("'" + *hit + "' is the active pair (" + active.describe() + ")",
                        "switch to another pair first, or pass --force");
    };
    refuse_active(plan_removal(spec, store, args.cudnn_only));  // fail fast, before waiting for a lock

    install::StoreLock install_lock(store, args.quiet);
    auto lock = store.lock();
    auto removal = plan_removal(spec, store, args.cudnn_only);  // again, on what is there now
    refuse_active(removal);
    for (const auto& line : apply_removal(removal, store, [&](const fs::path& p) { install::remove_installed(store, p); }))
        std::cout << line << "\n";
}

}  // namespace

void register_uninstall(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("uninstall", "Remove a toolkit / cuDNN from the store (or forget an adopted one)");
    auto args = std::make_shared<UninstallArgs>();
    cmd->add_option("spec", args->spec, "11.8 removes the toolkit; 11.8+8.9.7 also that cuDNN")->required();
    cmd->add_flag("--cudnn-only", args->cudnn_only, "Remove only the cuDNN of the pair");
    cmd->add_flag("-f,--force", args->force, "Remove even the active pair");
    cmd->add_flag("-q,--quiet", args->quiet, "Say nothing while waiting for another install");
    cmd->callback([&ctx, args] { run_uninstall(ctx, *args); });
}

}  // namespace cudaenv
