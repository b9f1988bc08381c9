#pragma once
// The lines of the block `cudaenv setup` puts into a shell profile, from the
// files in shell/profile/ (named by the shell table's extension) with their
// placeholders filled through the shell's own quote().
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

struct ShellInfo;

// For bash, zsh, fish or pwsh: shell/profile/<name>.<ext>, after path.<ext>
// when `shims_on_path` (POSIX; Windows keeps the shims in the user's PATH).
std::vector<std::string> profile_block_lines(const ShellInfo& shell, std::string_view exe, std::string_view shims,
                                             bool shims_on_path);

// What to tell someone whose shell has not loaded the integration: how each
// shell users run on this OS loads it (the shell table).
std::string integration_setup_hint(bool windows);

}  // namespace cudaenv
