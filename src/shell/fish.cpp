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
        // `VAR=value command` needs fish 3.1; it spares starting env(1).
        std::string out =
            "# cudaenv shell integration for fish. Add to ~/.config/fish/config.fish:  cudaenv init fish | source\n"
            "set -g __cudaenv_bin " + quote(o.exe) + "\n"
            "function cudaenv --description 'CUDA toolkit + cuDNN environment manager'\n"
            "    switch \"$argv[1]\"\n"
            "        case use shell deactivate\n"
            "            set -l __cudaenv_code (CUDAENV_SHELL=fish command $__cudaenv_bin $argv)\n"
            "            or return $status\n"
            "            string join \\n -- $__cudaenv_code | source\n"
            "        case '*'\n"
            "            command $__cudaenv_bin $argv\n"
            "            or return $status\n"
            "    end\n";
        if (o.auto_switch)
            // After deactivate (or a new .cudaenv here) the folder's pair applies again at once.
            out += "    if contains -- \"$argv[1]\" deactivate local\n"
                   "        set -g __cudaenv_key\n"
                   "        __cudaenv_hook\n"
                   "    end\n";
        out += "end\n";
        if (!o.auto_switch) return out;
        // The key is "k", then for every version file that can decide the pair
        // here its path and first 32 lines; files are only compared as strings,
        // never evaluated. Only builtins and functions run (command substitution
        // of those does not fork), so an unchanged key starts no process.
        return out +
               "function __cudaenv_read\n"
               "    set -l i 0\n"
               "    while test $i -lt 32; and read -l line\n"
               "        printf '%s\\n' $line\n"
               "        set i (math $i + 1)\n"
               "    end < $argv[1] 2>/dev/null\n"
               "end\n"
               "function __cudaenv_hook --on-variable PWD --on-event fish_prompt\n"
               "    # An explicit `cudaenv use` (or a CUDAENV_VERSION of the user's) wins.\n"
               "    test -n \"$CUDAENV_VERSION\"; and return\n"
               "    set -l d (string replace -r '/$' '' -- $PWD)\n"
               "    set -l k k\n"
               "    set -l hit\n"
               "    while true\n"
               "        if test -f \"$d/.cudaenv\"\n"
               "            set -a k \"$d/.cudaenv\" (__cudaenv_read \"$d/.cudaenv\")\n"
               "            set hit 1\n"
               "            break\n"
               "        end\n"
               "        if test -f \"$d/.tool-versions\"\n"
               "            set -l lines (__cudaenv_read \"$d/.tool-versions\")\n"
               "            string match -q '*cuda*' -- $lines; and set hit 1\n"
               "            set -a k \"$d/.tool-versions\" $lines\n"
               "        end\n"
               "        test -z \"$d\"; and break\n"
               "        set d (string replace -r '/[^/]*$' '' -- $d)\n"
               "    end\n"
               "    set -l key (string join \\n -- $k | string collect)\n"
               "    test \"$key\" = \"$__cudaenv_key\"; and return\n"
               "    set -g __cudaenv_key $key\n"
               "    # With no .cudaenv and no .tool-versions that mentions cuda, and\n"
               "    # nothing active, there is nothing to do.\n"
               "    if test -z \"$hit\"; and not set -q __CUDAENV_STATE\n"
               "        return\n"
               "    end\n"
               "    set -l code (CUDAENV_SHELL=fish command $__cudaenv_bin hook-env)\n"
               "    and string join \\n -- $code | source\n"
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
