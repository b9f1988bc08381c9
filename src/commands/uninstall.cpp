// cudaenv uninstall <spec> [--cudnn-only] [--force]: remove a toolkit (and the
// cuDNN a <cuda>+<cudnn> spec names) from the store, or forget an adopted
// external folder without touching it.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "store/system_store.hpp"
#include "store/uninstall.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

struct UninstallArgs {
    std::string spec;
    bool force = false;
    bool cudnn_only = false;
    bool quiet = false;
    bool system = false;
};

void run_uninstall(Context& ctx, const UninstallArgs& args) {
    auto spec = Spec::parse_or_throw(args.spec);
    std::unique_ptr<ExclusiveLock> system_lock;  // --system: from the shared system store
    if (args.system) system_lock = enter_system_store(ctx, args.quiet);
    auto& store = ctx.store();
    auto refuse_shared = [](const Removal& r) {
        refuse_shared_change(r.toolkit ? &*r.toolkit : nullptr, r.cudnn ? &*r.cudnn : nullptr, "uninstall");
    };
    // Refuse to pull the active pair out from under the user.
    auto refuse_active = [&](const Removal& r) {
        if (args.force) return;
        auto active = ctx.active();
        if (auto hit = removes_active(r, active.spec, store))
            throw Error("'" + *hit + "' is the active pair (" + active.describe() + ")",
                        "switch to another pair first, or pass --force");
    };
    {  // fail fast, before waiting for a lock
        auto first = plan_removal(spec, store, args.cudnn_only);
        refuse_shared(first);
        refuse_active(first);
    }

    install::StoreLock install_lock(store, args.quiet);
    auto lock = store.lock();
    auto removal = plan_removal(spec, store, args.cudnn_only);  // again, on what is there now
    refuse_shared(removal);
    refuse_active(removal);
    for (const auto& line : apply_removal(removal, store, [&](const fs::path& p) { install::remove_installed(store, p); }))
        std::cout << line << "\n";
}

}  // namespace

void register_uninstall(CLI::App* cmd, Context& ctx) {
    auto args = std::make_shared<UninstallArgs>();
    cmd->add_option("spec", args->spec, "11.8 removes the toolkit; 11.8+8.9.7 also that cuDNN")->required();
    cmd->add_flag("--cudnn-only", args->cudnn_only, "Remove only the cuDNN of the pair");
    cmd->add_flag("-f,--force", args->force, "Remove even the active pair");
    cmd->add_flag("-q,--quiet", args->quiet, "Say nothing while waiting for another install");
    add_system_flag(cmd, args->system);
    cmd->callback([&ctx, args] { run_uninstall(ctx, *args); });
}

}  // namespace cudaenv
