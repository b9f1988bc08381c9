#include "shell/profile_lines.hpp"

#include "shell/shell.hpp"
#include "shell/template.hpp"

namespace cudaenv {

namespace {

// shell/profile/<file>, one line, its @EXE@ and @SHIMS@ through the shell's own quote().
std::string line_of(const std::string& file, const Shell& sh, std::string_view exe, std::string_view shims) {
    TemplateArgs args(sh);
    args.value("EXE", exe).value("SHIMS", shims);
    auto line = fill_template("profile/" + file, args);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    return line;
}

}  // namespace

std::vector<std::string> profile_block_lines(const ShellInfo& shell, std::string_view exe, std::string_view shims,
                                             bool shims_on_path) {
    auto sh = shell.make();
    const std::string ext(shell.ext);
    std::vector<std::string> lines;
    if (shims_on_path) lines.push_back(line_of("path." + ext, *sh, exe, shims));
    lines.push_back(line_of(std::string(shell.name) + "." + ext, *sh, exe, shims));
    return lines;
}

std::string integration_setup_hint(bool windows) {
    std::string out;
    for (const auto& s : shells()) {
        if (!runs_on(s, windows)) continue;
        out += out.empty() ? "add " : "; ";
        out += "`" + std::string(s.load_line) + "` to " + std::string(s.profile_shown);
    }
    return out + (windows ? ", or put the store's shims folder first on PATH"
                          : ", or run one command with `cudaenv exec <spec> -- ...`");
}

}  // namespace cudaenv
