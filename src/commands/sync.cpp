// cudaenv sync [--locked|--frozen] [--store-only] [--print-pair]: the store
// holds exactly the pair of the project's cudaenv.lock and the project uses it
// (install/sync.hpp).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/download_options.hpp"
#include "commands/gpu_options.hpp"
#include "commands/update_shims.hpp"
#include "install/fetch.hpp"
#include "install/mirror.hpp"
#include "install/sync.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

struct SyncArgs {
    bool locked = false, frozen = false, dry_run = false, store_only = false, print_pair = false;
    DownloadOptions download;
    std::string mirror;
    gpu::Overrides gpu;
    bool force = false;
};

void run_sync(Context& ctx, const SyncArgs& args) {
    if (args.locked && args.frozen)
        throw UsageError("--locked and --frozen exclude each other",
                         "--locked: fail when cudaenv.lock is out of date; --frozen: use it as it is");
    if (args.store_only && !args.locked && !args.frozen)
        throw UsageError("--store-only goes with --frozen or --locked",
                         "a plain sync may write cudaenv.lock and .cudaenv");
    if (args.print_pair && args.dry_run)
        throw UsageError("--print-pair prints the pair a sync made ready; --dry-run makes nothing ready");
    using Mode = install::SyncOptions::Mode;
    install::SyncOptions opts;
    opts.mode = args.locked ? Mode::locked : args.frozen ? Mode::frozen : Mode::plain;
    opts.store_only = args.store_only;
    opts.quiet = args.download.quiet;
    opts.dry_run = args.dry_run;
    opts.connections = install::choose_connections(args.download.connections);
    // "" = the lock's own mirror; the hashes in the lock make any mirror safe.
    opts.mirror = install::choose_mirror(args.mirror, platform::get_env("CUDAENV_MIRROR"), ctx.store().config().mirror, "");
    // Judged as install judges, and the lock's [requires] too, only when there is something to install.
    auto machine = lazy_machine(ctx, args.gpu);
    opts.runs_here = runs_here_for(machine, args.force);
    opts.lock_runs_here = lock_judge_for(machine, args.force);
    // --print-pair: stdout holds the pair alone, for a script; the report goes to stderr.
    if (install::sync_project(ctx.store(), ctx.cwd(), opts, args.print_pair ? std::cerr : std::cout)) update_shims(ctx);
    if (args.print_pair) std::cout << install::locked_pair(ctx.cwd(), opts.mode) << "\n";
}

}  // namespace

void register_sync(CLI::App* cmd, Context& ctx) {
    auto args = std::make_shared<SyncArgs>();
    cmd->add_flag("--locked", args->locked, "Fail when cudaenv.lock does not match .cudaenv (do not lock again)");
    cmd->add_flag("--frozen", args->frozen, "Install cudaenv.lock as it is, without reading .cudaenv");
    cmd->add_option("--mirror", args->mirror,
                    "Mirror folder or URL to fetch from (default: $CUDAENV_MIRROR, config.toml `mirror`, else the "
                    "lock's)");
    cmd->add_flag("--dry-run", args->dry_run, "Print what would be installed; change nothing");
    cmd->add_flag("--store-only", args->store_only,
                  "With --frozen or --locked: change only the store, write no .cudaenv (a CI checkout stays clean)");
    cmd->add_flag("--print-pair", args->print_pair, "Print only the locked pair on stdout (the report on stderr)");
    add_download_options(cmd, args->download);
    add_gpu_options(cmd, args->gpu);
    add_force_option(cmd, args->force);
    cmd->callback([&ctx, args] { run_sync(ctx, *args); });
}

}  // namespace cudaenv
