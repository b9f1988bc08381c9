// cudaenv pair <cuda> <cudnn> | <cuda> --unset | (no args): pin which cuDNN
// goes with a toolkit when a spec names only the CUDA version.
#include <CLI/CLI.hpp>
#include <iostream>

#include "nvidia/compat.hpp"
#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "store/system_store.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

void run_pair(Context& ctx, const std::string& cuda_text, const std::string& cudnn_text, bool unset, bool system) {
    // --system: the admin's pins, which apply where a user has none of their own.
    std::unique_ptr<ExclusiveLock> system_lock;
    if (system && !cuda_text.empty()) system_lock = enter_system_store(ctx, false);
    else if (system) ctx.replace_store(std::make_unique<Store>(system_store_root()));
    auto& store = ctx.store();
    if (cuda_text.empty()) {
        for (const auto& [tk, cudnn] : store.config().pins) std::cout << tk << " -> " << cudnn << "\n";
        return;
    }
    auto lock = store.lock();  // the pins read are the pins written back
    auto& pins = store.config().pins;
    auto cuda = Spec::parse_or_throw(cuda_text);
    if (cuda.system || cuda.cudnn_kind != Spec::Cudnn::default_)
        throw UsageError("give the CUDA version alone, then the cuDNN version", "cudaenv pair 11.8 8.9.7");
    auto toolkit = select_pair(cuda, store).toolkit;
    if (unset) {
        pins.erase(toolkit.version.str());
        store.save_config();
        return;
    }
    if (cudnn_text.empty()) throw UsageError("which cuDNN?", "cudaenv pair " + cuda_text + " <cudnn version>");
    auto want = Version::parse(cudnn_text);
    if (!want) throw UsageError("invalid cuDNN version '" + cudnn_text + "'", "e.g. 8.9.7 or 9");
    std::optional<CudnnRecord> chosen;
    for (const auto& c : store.cudnns())
        if (c.version.matches(*want) && (!chosen || cudnn_fits(c, toolkit))) {
            if (!chosen || (cudnn_fits(c, toolkit) && !cudnn_fits(*chosen, toolkit))) chosen = c;
        }
    if (!chosen)
        throw Error("no installed cuDNN matches '" + cudnn_text + "' (installed: " + installed_summary(store) + ")",
                    "run `cudaenv list`");
    if (!cudnn_fits(*chosen, toolkit))
        std::cerr << "cudaenv: warning: cuDNN " << chosen->version.str() << " is built for CUDA "
                  << (chosen->cuda_major ? std::to_string(chosen->cuda_major) : std::string("(unknown)"))
                  << ", the toolkit is CUDA " << toolkit.version.str() << "; libraries may fail to load\n";
    else if (auto conflict = nvidia::Compat::get().pair_conflict(toolkit.version, chosen->version); !conflict.empty())
        std::cerr << "cudaenv: warning: " << conflict << "\n";
    pins[toolkit.version.str()] = chosen->version.str();
    store.save_config();
    std::cout << toolkit.version.str() << " -> " << chosen->version.str() << "\n";
}

}  // namespace

void register_pair(CLI::App* cmd, Context& ctx) {
    auto cuda = std::make_shared<std::string>();
    auto cudnn = std::make_shared<std::string>();
    auto unset = std::make_shared<bool>(false);
    auto system = std::make_shared<bool>(false);
    cmd->add_option("cuda", *cuda, "Toolkit version (prefix)");
    cmd->add_option("cudnn", *cudnn, "cuDNN version (prefix)");
    cmd->add_flag("--unset", *unset, "Remove the pin");
    add_system_flag(cmd, *system);
    cmd->callback([&ctx, cuda, cudnn, unset, system] { run_pair(ctx, *cuda, *cudnn, *unset, *system); });
}

}  // namespace cudaenv
