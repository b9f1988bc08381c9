#include "shell/profile_lines.hpp"

#include "shell/shell.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

std::string line_of(const std::string& file, const Shell& sh, std::string_view exe, std::string_view shims) {
    auto data = embedded::find("profile/" + file);
    if (!data) throw Error("shell/profile/" + file + " is missing from this build of cudaenv");
    std::string line(*data);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    // One pass, so a path that itself holds "@SHIMS@" stays as it is.
    std::string out;
    for (size_t i = 0; i < line.size();) {
        if (line.compare(i, 5, "@EXE@") == 0) {
            out += sh.quote(exe);
            i += 5;
        } else if (line.compare(i, 7, "@SHIMS@") == 0) {
            out += sh.quote(shims);
            i += 7;
        } else {
            out += line[i++];
        }
    }
    return out;
}

}  // namespace

std::vector<std::string> profile_block_lines(std::string_view shell, std::string_view exe, std::string_view shims,
                                             bool shims_on_path) {
    auto sh = make_shell(shell);
    std::string ext = shell == "fish" ? "fish" : shell == "pwsh" ? "ps1" : "sh";
    std::string init = shell == "zsh" ? "zsh.zsh" : std::string(shell) + "." + ext;
    std::vector<std::string> lines;
    if (shims_on_path) lines.push_back(line_of("path." + ext, *sh, exe, shims));
    lines.push_back(line_of(init, *sh, exe, shims));
    return lines;
}

std::string integration_setup_hint(bool windows) {
    return windows ? "in PowerShell add `Invoke-Expression (& cudaenv init pwsh | Out-String)` to "
                     "$PROFILE, or put the store's shims folder first on PATH; in cmd see `cudaenv init cmd`"
                   : "add `eval \"$(cudaenv init bash)\"` to ~/.bashrc (zsh: init zsh; fish: "
                     "`cudaenv init fish | source`), or run one command with `cudaenv exec <spec> -- ...`";
}

}  // namespace cudaenv
