#pragma once
// After the store's pairs changed (add, discover, install): the tool shims
// (rehash) and the session shims together, so that the shims folder always
// has cudaenv.cmd / cudaenv.ps1 beside the tools; warns instead of failing.
namespace cudaenv {

class Context;
void update_shims(Context& ctx);

}  // namespace cudaenv
