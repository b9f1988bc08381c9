// cudaenv add <dir>: adopt an existing toolkit or cuDNN folder (recorded,
// never copied or changed).
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/update_shims.hpp"
#include "store/rehash.hpp"
#include "store/adopt.hpp"
#include "store/system_store.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_add(Context& ctx, const std::string& dir_text, bool system) {
    auto dir = fsx::absolute_normal(fsx::from_utf8(dir_text));
    if (!fsx::is_dir(dir)) throw Error("'" + dir_text + "' is not a folder");
    std::unique_ptr<ExclusiveLock> system_lock;  // --system: adopt into the shared system store
    if (system) system_lock = enter_system_store(ctx, false);
    auto& store = ctx.store();
    if (system) refuse_untrusted(dir, store.root());  // before config.lock is made or anything written
    auto lock = store.lock();  // what is known, adopted and saved: one step
    if (path_entry_under(fsx::to_utf8(dir), fsx::to_utf8(store.root()), native_path_style()))
        throw Error("'" + fsx::to_utf8(dir) + "' is inside the store; installed pairs are already known",
                    "run `cudaenv list`");
    auto found = inspect_folder(dir, store);
    if (found.empty())
        throw Error("'" + fsx::to_utf8(dir) + "' is neither a CUDA toolkit nor a cuDNN folder",
                    "a toolkit has bin/nvcc or a CUDA runtime library (lib64/libcudart.so.*, bin/cudart64_*.dll); "
                    "a cuDNN has include/cudnn_version.h with lib/libcudnn.so.* or bin/cudnn64_*.dll");
    if (system)
        for (const auto& f : found) refuse_untrusted(f.path, store.root());
    adopt(found, store);
    store.save_config();
    update_shims(ctx);
    for (const auto& f : found)
        std::cout << (f.known ? "already known: " : "added ") << describe(f) << " at " << fsx::to_utf8(f.path)
                  << (f.variant.empty() ? "" : " (" + f.variant + ")") << "\n";
    for (const auto& f : found)
        if (f.kind == Found::Kind::cudnn && f.cuda_major == 0)
            std::cerr << "cudaenv: warning: cannot tell which CUDA cuDNN " << f.version.str()
                      << " was built for; name it explicitly (cudaenv pair <cuda> " << f.version.str() << ")\n";
}

}  // namespace

void register_add(CLI::App* cmd, Context& ctx) {
    auto dir = std::make_shared<std::string>();
    cmd->add_option("dir", *dir, "The folder")->required();
    auto system = std::make_shared<bool>(false);
    add_system_flag(cmd, *system);
    cmd->callback([&ctx, dir, system] { run_add(ctx, *dir, *system); });
}

}  // namespace cudaenv
