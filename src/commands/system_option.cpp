// --system, shared by install, add, uninstall and check: act on the shared
// system store (store/system_store.hpp) instead of the user's own.
#include <CLI/CLI.hpp>

#include "commands/context.hpp"
#include "store/system_store.hpp"

namespace cudaenv {

void add_system_flag(CLI::App* cmd, bool& flag) {
    cmd->add_flag("--system", flag,
                  "Act on the shared system store ($CUDAENV_SYSTEM_ROOT, else /opt/cudaenv; %ProgramData%\\cudaenv on "
                  "Windows) instead of your own; needs write access to it");
}

std::unique_ptr<ExclusiveLock> enter_system_store(Context& ctx, bool quiet) {
    auto root = system_store_root();
    auto lock = lock_system_store(root, quiet);
    ctx.replace_store(std::make_unique<Store>(root));
    return lock;
}

}  // namespace cudaenv
