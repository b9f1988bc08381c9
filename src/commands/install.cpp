// cudaenv install <archive>... | <spec> [--mirror ...] | --list: put toolkits
// and cuDNNs into the store from NVIDIA's archives or redist mirrors.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/download_options.hpp"
#include "commands/for_framework.hpp"
#include "commands/gpu_options.hpp"
#include "commands/update_shims.hpp"
#include "install/fetch.hpp"
#include "install/installer.hpp"
#include "gpu/install_choice.hpp"
#include "install/mirror.hpp"
#include "install/sync.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

struct InstallArgs {
    std::vector<std::string> targets;
    std::string mirror;
    std::string components;
    std::string sha256;
    bool list = false;
    bool dry_run = false;
    bool locked = false;
    bool frozen = false;
    DownloadOptions download;
    ForOptions for_opts;
    bool system = false;
    gpu::Overrides gpu;
    bool force = false;
};

void run_install(Context& ctx, const InstallArgs& args) {
    // --system: into the shared system store, held against other admins' installs on any node.
    std::unique_ptr<ExclusiveLock> system_lock;
    if (args.system && !args.list) system_lock = enter_system_store(ctx, args.download.quiet);
    auto& store = ctx.store();
    install::InstallOptions opts;
    opts.quiet = args.download.quiet;
    opts.dry_run = args.dry_run;
    opts.connections = install::choose_connections(args.download.connections);
    opts.sha256 = args.sha256;
    opts.mirror = install::choose_mirror(args.mirror, platform::get_env("CUDAENV_MIRROR"), store.config().mirror);
    if (args.locked || args.frozen) {  // the same as `cudaenv sync --locked` / `--frozen`
        const char* flag = args.locked ? "--locked" : "--frozen";
        if (args.locked && args.frozen)
            throw UsageError("--locked and --frozen exclude each other",
                             "--locked: fail when cudaenv.lock is out of date; --frozen: install it as it is");
        if (!args.targets.empty() || args.list)
            throw UsageError(std::string(flag) + " installs the project's cudaenv.lock: give no spec");
        auto mirror = install::choose_mirror(args.mirror, platform::get_env("CUDAENV_MIRROR"), store.config().mirror, "");
        install::SyncOptions so;
        so.mode = args.locked ? install::SyncOptions::Mode::locked : install::SyncOptions::Mode::frozen;
        so.quiet = opts.quiet;
        so.dry_run = args.dry_run;
        so.connections = opts.connections;
        so.mirror = mirror;
        // Judged as `sync` judges: the lock's pair and its [requires].
        auto machine = lazy_machine(ctx, args.gpu);
        so.runs_here = runs_here_for(machine, args.force);
        so.lock_runs_here = lock_judge_for(machine, args.force);
        if (install::sync_project(store, ctx.cwd(), so, std::cout)) update_shims(ctx);
        return;
    }
    for (const auto& c : str::split(args.components, ','))
        if (auto t = str::trim(c); !t.empty()) opts.components.emplace_back(t);

    if (args.list) {
        if (!args.targets.empty()) throw UsageError("--list takes no archive or version");
        install::list_mirror(opts, std::cout);
        return;
    }
    std::vector<std::string> for_targets;
    if (!args.for_opts.for_text.empty()) {
        if (!args.targets.empty()) throw UsageError("give specs or --for, not both");
        auto c = choose_for_framework(store, args.for_opts);
        if (c.choice) {
            std::cerr << "cudaenv: " << c.label << " was " << c.choice->why << "; nothing to install\n"
                      << "hint: pin it with `cudaenv local " << c.choice->pair.spec() << "`\n";
            return;
        }
        for_targets.push_back(install_spec_for(c.build));
        std::cerr << "cudaenv: " << c.label << " was built with " << c.build.needs() << "; installing "
                  << for_targets.back() << "\n";
    }
    const auto& targets = for_targets.empty() ? args.targets : for_targets;
    if (targets.empty())
        throw UsageError("what should be installed?",
                         "cudaenv install 12.6+9.8.0, cudaenv install <archive>..., or cudaenv install --list");

    // A spec is a version ("11.8", "12.6+9.8.0"); anything else is an archive file.
    std::vector<Spec> specs;
    std::vector<fs::path> archives;
    for (const auto& t : targets) {
        auto path = fsx::from_utf8(t);
        if (auto spec = Spec::parse(t); spec && !fsx::exists(path)) specs.push_back(*spec);
        else archives.push_back(fsx::absolute_normal(path));
    }
    if (!specs.empty() && !archives.empty())
        throw UsageError("give either versions or archive files, not both");
    if (!archives.empty()) {
        if (!args.components.empty()) throw UsageError("--components is for installs from a mirror");
        install::install_archives(store, archives, opts, std::cout);
        if (!args.dry_run) update_shims(ctx);
        return;
    }
    if (!args.sha256.empty()) throw UsageError("--sha256 is for a local archive; a mirror's manifest has the hashes");
    // Only releases that run on this machine's GPUs (or --gpu's), decided before any download.
    auto machine = lazy_machine(ctx, args.gpu);
    machine();  // asked now, before anything is planned (and says so when an override is in force)
    opts.runs_here = runs_here_for(machine, args.force);
    for (const auto& spec : specs) {
        if (spec.cudnn_kind == Spec::Cudnn::version && spec.cudnn.empty())
            throw UsageError("give a cuDNN version after '+'", "cudaenv install 11.8+8.9.7");
        install::install_spec(store, spec, opts, std::cout);
    }
    if (!args.dry_run) update_shims(ctx);
    if (!for_targets.empty())
        std::cerr << "hint: pin it for the project: cudaenv local --for " << args.for_opts.for_text
                  << (args.for_opts.os.empty() ? "" : " --os " + args.for_opts.os) << "\n";
}

}  // namespace

void register_install(CLI::App* cmd, Context& ctx) {
    auto args = std::make_shared<InstallArgs>();
    cmd->add_option("what", args->targets,
                    "A spec (11.8, 12.6+9.8.0) to fetch from the mirror, or archive files "
                    "(cudnn-...-archive.tar.xz|.zip, cuda_cudart-...-archive.tar.xz, ...)");
    cmd->add_option("--mirror", args->mirror,
                    "Mirror folder or http(s) URL with NVIDIA's layout (default: $CUDAENV_MIRROR, config.toml "
                    "`mirror`, else https://developer.download.nvidia.com/compute)");
    cmd->add_option("--components", args->components,
                    "CUDA components to install, comma-separated (default: runtime, nvcc, headers, math libraries, "
                    "NVRTC, CUPTI, NVTX, ...)");
    cmd->add_option("--sha256", args->sha256, "Expected SHA-256 of the one archive given");
    cmd->add_flag("--list", args->list, "List the releases the mirror offers");
    add_download_options(cmd, args->download);
    cmd->add_flag("--dry-run", args->dry_run, "Print the plan (every archive, its size, the folders, the pin); change nothing");
    cmd->add_flag("--locked", args->locked, "Install the project's cudaenv.lock, as `cudaenv sync --locked`");
    cmd->add_flag("--frozen", args->frozen, "Install the project's cudaenv.lock as it is, as `cudaenv sync --frozen`");
    add_for_options(cmd, args->for_opts);
    add_system_flag(cmd, args->system);
    add_gpu_options(cmd, args->gpu);
    cmd->add_flag("--force", args->force,
                  "Install a release even when it cannot run on this machine's GPUs (building for another machine)");
    cmd->callback([&ctx, args] { run_install(ctx, *args); });
}

}  // namespace cudaenv
