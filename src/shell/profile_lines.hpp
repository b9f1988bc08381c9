#pragma once
// The lines of the block `cudaenv setup` puts into a shell profile, from the
// files in shell/profile/ with their placeholders filled through the shell's
// own quote().
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

// bash, zsh, fish or pwsh. `shims_on_path`: put the shims folder on PATH in
// the profile (POSIX; Windows keeps it in the user's PATH instead).
std::vector<std::string> profile_block_lines(std::string_view shell, std::string_view exe, std::string_view shims,
                                             bool shims_on_path);

// What to tell someone whose shell has not loaded the integration: the
// PowerShell and cmd ways under Windows, the bash/zsh/fish ones elsewhere.
std::string integration_setup_hint(bool windows);

}  // namespace cudaenv
