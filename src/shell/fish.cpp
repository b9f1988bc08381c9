// fish: single quotes where only \ and ' are escaped; PATH-like variables are
// lists in fish, so they are set element by element.
#include "shell/shell.hpp"

#include "core/pathlist.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

class Fish : public Shell {
public:
    std::string_view name() const override { return "fish"; }
    std::string quote(std::string_view v) const override {
        std::string out = "'";
        for (char c : v) {
            if (c == '\\' || c == '\'') out += '\\';
            out += c;
        }
        return out + "'";
    }
    std::string set_var(std::string_view n, std::string_view v) const override {
        std::string out = "set -gx " + std::string(n);
        if (n == "PATH" || n == "LD_LIBRARY_PATH") {
            // fish splits these on ':' itself; giving the elements keeps empty
            // ones (fish itself exports an empty PATH element as '.'). An empty
            // value is the empty list, which fish exports as "" ('' would be ".").
            for (const auto& e : split_path_list(v, PathStyle::posix)) out += " " + quote(e);
            return out;
        }
        return out + " " + quote(v);
    }
    std::string unset_var(std::string_view n) const override { return "set -e " + std::string(n); }

    std::string init_script(const InitOptions& o) const override {
        return "# cudaenv shell integration for fish. Add to ~/.config/fish/config.fish:  cudaenv init fish | source\n"
               "function cudaenv --description 'CUDA toolkit + cuDNN environment manager'\n"
               "    switch \"$argv[1]\"\n"
               "        case use shell deactivate\n"
               "            set -l __cudaenv_code (env CUDAENV_SHELL=fish " + quote(o.exe) + " $argv)\n"
               "            or return $status\n"
               "            string join \\n -- $__cudaenv_code | source\n"
               "        case '*'\n"
               "            command " + quote(o.exe) + " $argv\n"
               "    end\n"
               "end\n";
    }

    std::string completion_script(const std::vector<std::string>& commands) const override {
        std::string out = "# cudaenv completion for fish\ncomplete -c cudaenv -f\n";
        out += "complete -c cudaenv -n '__fish_use_subcommand' -a " + quote(str::join(commands, " ")) + "\n";
        out += "complete -c cudaenv -n '__fish_seen_subcommand_from use shell local global env exec uninstall check pair' "
               "-a '(command cudaenv list --bare 2>/dev/null; echo system)'\n";
        out += "complete -c cudaenv -n '__fish_seen_subcommand_from init completions' -a 'bash zsh fish pwsh powershell cmd'\n";
        out += "complete -c cudaenv -n '__fish_seen_subcommand_from add discover' -a '(__fish_complete_directories)'\n";
        return out;
    }
};

}  // namespace

std::unique_ptr<Shell> make_fish() { return std::make_unique<Fish>(); }

}  // namespace cudaenv
