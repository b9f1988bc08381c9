// cudaenv uninstall <spec> [--cudnn-only] [--force]: remove a toolkit (and the
// cuDNN a <cuda>+<cudnn> spec names) from the store, or forget an adopted
// external folder without touching it.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "commands/context.hpp"
#include "core/system_store.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

struct UninstallArgs {
    std::string spec;
    bool force = false;
    bool cudnn_only = false;
    bool quiet = false;
    bool system = false;
};

bool same_path(const fs::path& a, const fs::path& b) {
    return fsx::absolute_normal(a) == fsx::absolute_normal(b);
}

void run_uninstall(Context& ctx, const UninstallArgs& args) {
    auto spec = Spec::parse_or_throw(args.spec);
    if (spec.system) throw UsageError("`system` is not installed by cudaenv", "give a version: cudaenv uninstall 11.8");
    std::unique_ptr<ExclusiveLock> system_lock;  // --system: from the shared system store
    if (args.system) system_lock = enter_system_store(ctx, args.quiet);
    auto& store = ctx.store();
    auto pair = select_pair(spec, store);

    std::optional<ToolkitRecord> toolkit;
    std::optional<CudnnRecord> cudnn;
    if (args.cudnn_only) {
        if (!pair.cudnn) throw Error("CUDA " + pair.toolkit.version.str() + " has no cuDNN to remove");
        cudnn = pair.cudnn;
    } else {
        toolkit = pair.toolkit;
        if (spec.cudnn_kind == Spec::Cudnn::version) cudnn = pair.cudnn;
    }
    refuse_shared_change(toolkit ? &*toolkit : nullptr, cudnn ? &*cudnn : nullptr, "uninstall");

    // Refuse to pull the active pair out from under the user.
    if (!args.force) {
        auto active = ctx.active();
        if (!active.spec.system) {
            std::optional<Pair> act;
            try {
                act = select_pair(active.spec, store);
            } catch (const Error&) {
            }
            bool hit = act && ((toolkit && same_path(act->toolkit.path, toolkit->path)) ||
                               (cudnn && act->cudnn && same_path(act->cudnn->path, cudnn->path)));
            if (hit)
                throw Error("'" + act->spec() + "' is the active pair (" + active.describe() + ")",
                            "switch to another pair first, or pass --force");
        }
    }

    install::StoreLock lock(store, args.quiet);
    auto& config = store.config();
    if (toolkit) {
        if (toolkit->managed) {
            install::remove_installed(store, toolkit->path);
            std::cout << "removed CUDA " << toolkit->version.str() << " (" << fsx::to_utf8(toolkit->path) << ")\n";
        } else {
            std::erase_if(config.toolkits, [&](const ExternalToolkit& t) {
                return same_path(fsx::from_utf8(t.path), toolkit->path);
            });
            std::cout << "forgot CUDA " << toolkit->version.str() << " at " << fsx::to_utf8(toolkit->path)
                      << " (the folder is left as it is)\n";
        }
        config.pins.erase(toolkit->version.str());
    }
    if (cudnn) {
        if (cudnn->managed) {
            install::remove_installed(store, cudnn->path);
            std::cout << "removed cuDNN " << cudnn->version.str() << " for CUDA " << cudnn->cuda_major << " ("
                      << fsx::to_utf8(cudnn->path) << ")\n";
        } else {
            std::erase_if(config.cudnns, [&](const ExternalCudnn& c) {
                return same_path(fsx::from_utf8(c.path), cudnn->path) && c.variant == cudnn->variant;
            });
            std::cout << "forgot cuDNN " << cudnn->version.str() << " at " << fsx::to_utf8(cudnn->path)
                      << " (the folder is left as it is)\n";
        }
        // Pins that named this cuDNN go, unless another build of that version remains.
        auto remaining = store.cudnns();
        bool still_there = std::any_of(remaining.begin(), remaining.end(),
                                       [&](const CudnnRecord& c) { return c.version == cudnn->version; });
        if (!still_there)
            std::erase_if(config.pins, [&](const auto& kv) {
                auto v = Version::parse(kv.second);
                return v && cudnn->version.matches(*v);
            });
    }
    store.save_config();
}

}  // namespace

void register_uninstall(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand("uninstall", "Remove a toolkit / cuDNN from the store (or forget an adopted one)");
    auto args = std::make_shared<UninstallArgs>();
    cmd->add_option("spec", args->spec, "11.8 removes the toolkit; 11.8+8.9.7 also that cuDNN")->required();
    cmd->add_flag("--cudnn-only", args->cudnn_only, "Remove only the cuDNN of the pair");
    cmd->add_flag("-f,--force", args->force, "Remove even the active pair");
    cmd->add_flag("-q,--quiet", args->quiet, "Say nothing while waiting for another install");
    add_system_flag(cmd, args->system);
    cmd->callback([&ctx, args] { run_uninstall(ctx, *args); });
}

}  // namespace cudaenv
