// cudaenv mirror create <dir> [<spec>...|--lock <file>] [--platform ...] | mirror verify <dir>:
// an offline mirror in NVIDIA's layout (install/offline_mirror.hpp).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/download_options.hpp"
#include "commands/gpu_options.hpp"
#include "install/fetch.hpp"
#include "install/locking.hpp"
#include "install/mirror.hpp"
#include "install/offline_mirror.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

struct MirrorArgs {
    std::string dir;
    std::vector<std::string> specs;
    std::string lock, platforms, source;
    DownloadOptions download;
    gpu::Overrides gpu;
    bool force = false;
};

void run_create(Context& ctx, const MirrorArgs& args) {
    install::MirrorCreateOptions opts;
    for (const auto& s : args.specs) opts.specs.push_back(Spec::parse_or_throw(s));
    if (!args.lock.empty()) opts.lock_file = fsx::absolute_normal(fsx::from_utf8(args.lock));
    if (!args.platforms.empty()) opts.platforms = install::parse_platforms(args.platforms);
    // With a lock and no --mirror, the lock's mirror is the source.
    opts.source = install::choose_mirror(args.source, platform::get_env("CUDAENV_MIRROR"), ctx.store().config().mirror,
                                         args.lock.empty() ? install::kDefaultMirror : "");
    opts.quiet = args.download.quiet;
    opts.connections = install::choose_connections(args.download.connections);
    auto machine = lazy_machine(ctx, args.gpu);
    opts.runs_here = runs_here_for(machine, args.force);
    opts.lock_runs_here = lock_judge_for(machine, args.force);
    auto dir = fsx::absolute_normal(fsx::from_utf8(args.dir));
    install::create_mirror(dir, opts, std::cout);
    std::cerr << "hint: install from it with --mirror " << fsx::to_utf8(dir) << ", or put `mirror = \""
              << fsx::to_utf8(dir) << "\"` at the top of config.toml (above any [table])\n";
}

}  // namespace

void register_mirror(CLI::App* cmd, Context& ctx) {
    cmd->require_subcommand(1);
    auto args = std::make_shared<MirrorArgs>();
    auto* create = cmd->add_subcommand(
        "create", "Copy the manifests and exactly the archives some specs (or a cudaenv.lock) need into a folder");
    create->add_option("dir", args->dir, "The mirror folder (created; resumes what an earlier run left)")->required();
    create->add_option("spec", args->specs, "Specs to resolve as `cudaenv lock` does (12.6+9.8, 11.8+8.9.7)");
    create->add_option("--lock", args->lock, "Copy the archives of this cudaenv.lock instead");
    create->add_option("--platform", args->platforms,
                       "Platforms, comma-separated (default: this machine's; with --lock, the lock's)");
    create->add_option("--mirror", args->source,
                       "Where to copy from (default: $CUDAENV_MIRROR, config.toml `mirror`, the lock's, else NVIDIA's)");
    add_download_options(create, args->download);
    add_gpu_options(create, args->gpu);
    add_force_option(create, args->force);
    create->callback([&ctx, args] { run_create(ctx, *args); });
    auto* verify = cmd->add_subcommand("verify", "Check every archive in a mirror folder against its manifest");
    verify->add_option("dir", args->dir, "The mirror folder")->required();
    verify->add_flag("-q,--quiet", args->download.quiet, "No progress display");
    verify->callback([args] {
        install::verify_mirror(fsx::absolute_normal(fsx::from_utf8(args->dir)), args->download.quiet, std::cout);
    });
}

}  // namespace cudaenv
