// zsh: the same quoting as bash; its own completion system.
#include "shell/shell.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

class Zsh : public Shell {
public:
    std::string_view name() const override { return "zsh"; }
    std::string quote(std::string_view v) const override { return posix_single_quote(v); }
    std::string set_var(std::string_view n, std::string_view v) const override {
        return "export " + std::string(n) + "=" + quote(v);
    }
    std::string unset_var(std::string_view n) const override { return "unset " + std::string(n); }

    std::string init_script(const InitOptions& o) const override {
        std::string out =
            "# cudaenv shell integration for zsh. Add to ~/.zshrc:  eval \"$(cudaenv init zsh)\"\n"
            "typeset -g __cudaenv_bin=" + quote(o.exe) + "\n" +
            posix_cudaenv_function("zsh", o.auto_switch);
        if (!o.auto_switch) return out;
        // chpwd on every directory change, precmd before each prompt (the first
        // one, and edits of a .cudaenv); the key check makes repeats free.
        return out + "typeset -g __cudaenv_key\n" + posix_autoswitch_hook("zsh") +
               "typeset -ga chpwd_functions precmd_functions\n"
               "if (( ! ${chpwd_functions[(Ie)__cudaenv_hook]} )); then chpwd_functions+=(__cudaenv_hook); fi\n"
               "if (( ! ${precmd_functions[(Ie)__cudaenv_hook]} )); then precmd_functions=(__cudaenv_hook $precmd_functions); fi\n";
    }

    std::string completion_script(const std::vector<std::string>& commands) const override {
        return "#compdef cudaenv\n"
               "# cudaenv completion for zsh\n"
               "_cudaenv() {\n"
               "  if (( CURRENT == 2 )); then\n"
               "    compadd -- " + str::join(commands, " ") + "\n"
               "    return\n"
               "  fi\n"
               "  case \"${words[2]}\" in\n"
               "    use|shell|local|global|env|exec|uninstall|check|pair)\n"
               "      compadd -- system ${(f)\"$(command cudaenv list --bare 2>/dev/null)\"} ;;\n"
               "    init|completions) compadd -- bash zsh fish pwsh powershell cmd ;;\n"
               "    add|discover) _files -/ ;;\n"
               "  esac\n"
               "}\n"
               "if (( $+functions[compdef] )); then compdef _cudaenv cudaenv; fi\n";
    }
};

}  // namespace

std::unique_ptr<Shell> make_zsh() { return std::make_unique<Zsh>(); }

}  // namespace cudaenv
