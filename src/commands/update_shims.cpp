#include "commands/update_shims.hpp"

#include <spdlog/spdlog.h>

#include "commands/context.hpp"
#include "store/rehash.hpp"

namespace cudaenv {

void update_shims(Context& ctx) {
    if (!rehash_or_warn(ctx.store())) return;
    try {
        ctx.refresh_session_shims();
    } catch (const std::exception& e) {
        spdlog::warn("the session shims (cudaenv.cmd, cudaenv.ps1) were not updated: {}", e.what());
    }
}

}  // namespace cudaenv
