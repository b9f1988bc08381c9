// cudaenv lock [--platform p[,p...]]: writes cudaenv.lock beside the project's
// .cudaenv, resolved on the mirror (install/locking.hpp, docs/lock.md).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/gpu_options.hpp"
#include "core/lockfile.hpp"
#include "core/resolve.hpp"
#include "install/locking.hpp"
#include "install/mirror.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

struct LockArgs {
    std::string platforms;
    bool platforms_given = false;
    std::string mirror;
    std::vector<std::string> stray;  // words after `lock`: it takes no spec
    gpu::Overrides gpu;
    bool force = false;
};

void run_lock(Context& ctx, const LockArgs& args) {
    if (!args.stray.empty()) {
        auto word = str::visible(args.stray.front().substr(0, 40));
        throw UsageError("`cudaenv lock` takes no spec ('" + word + "'): it locks the spec of the project's .cudaenv",
                         Spec::parse(args.stray.front())
                             ? "`cudaenv local " + word + "` writes it there; then run `cudaenv lock`"
                             : "run `cudaenv lock --help`");
    }
    auto vf = find_version_file(ctx.cwd());
    if (!vf)
        throw Error("no .cudaenv in " + fsx::to_utf8(ctx.cwd()) + " or above",
                    "write the project's spec into .cudaenv first (`cudaenv local <spec>`, or `echo 12.6+9.8 > .cudaenv`)");
    if (vf->spec.system)
        throw UsageError(fsx::to_utf8(vf->path) + " says 'system', which is no pair to lock",
                         "pin a pair: `cudaenv local 12.6+9.8`");
    auto file = lock_path_for(vf->path);
    auto machine = lazy_machine(ctx, args.gpu);
    LockFile lock;
    if (install::names_adopted(vf->spec)) {
        const std::vector<std::string> here{install::host_platform()};
        if (args.platforms_given && install::parse_platforms(args.platforms) != here)
            throw UsageError("'" + vf->spec.str() + "' names folders on this machine: it can be locked for " +
                             install::host_platform() + " only");
        lock = install::lock_adopted(ctx.store(), vf->spec);
        std::cerr << "cudaenv: warning: '" << vf->spec.str() << "' names folders adopted on this machine: the lock "
                  << "records their libraries' hashes, but the pair cannot be reproduced by download\n";
    } else {
        // Without --platform: the platforms the lock had, and this machine's.
        auto platforms = args.platforms_given ? install::parse_platforms(args.platforms)
                                              : install::kept_platforms(install::existing_lock(file));
        install::Catalog catalog(
            install::choose_mirror(args.mirror, platform::get_env("CUDAENV_MIRROR"), ctx.store().config().mirror));
        // The same judgement install makes (gpu/pair_code), before anything is written.
        lock = install::lock_from_mirror(catalog, vf->spec, platforms, runs_here_for(machine, args.force));
        lock.mirror = lock_mirror_text(lock.mirror, ctx.cwd(), file);
        print_judged(lock, machine(), std::cerr);
    }
    bool written = install::write_lock(lock, file);
    uint64_t bytes = 0;
    for (const auto& a : lock.archives) bytes += a.size;
    std::cout << (written ? "locked " : "up to date: ") << lock.pair << " for " << str::join(lock.platforms, ", ");
    if (!lock.adopted) std::cout << " (" << lock.archives.size() << " archives, " << str::human_bytes(static_cast<double>(bytes)) << ")";
    std::cout << " in " << fsx::to_utf8(file) << "\n";
}

}  // namespace

void register_lock(CLI::App* cmd, Context& ctx) {
    auto args = std::make_shared<LockArgs>();
    auto* platforms = cmd->add_option("--platform", args->platforms,
                                      "Platforms to lock archives for, comma-separated (default: those of the lock "
                                      "there now and this machine's; e.g. linux-x86_64,windows-x86_64,linux-sbsa)");
    cmd->add_option("--mirror", args->mirror,
                    "Mirror folder or http(s) URL to resolve on (default: $CUDAENV_MIRROR, config.toml `mirror`, "
                    "else NVIDIA's)");
    cmd->add_option("spec", args->stray)->group("");  // refused with the reason, not CLI11's "not expected"
    add_gpu_options(cmd, args->gpu);
    add_force_option(cmd, args->force);
    cmd->callback([&ctx, args, platforms] {
        args->platforms_given = platforms->count() > 0;
        run_lock(ctx, *args);
    });
}

}  // namespace cudaenv
