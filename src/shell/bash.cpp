// bash: POSIX single quotes; the integration is a function that evaluates
// what `cudaenv use/shell/deactivate` prints and passes everything else on.
#include "shell/shell.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

class Bash : public Shell {
public:
    std::string_view name() const override { return "bash"; }
    std::string quote(std::string_view v) const override { return posix_single_quote(v); }
    std::string set_var(std::string_view n, std::string_view v) const override {
        return "export " + std::string(n) + "=" + quote(v);
    }
    std::string unset_var(std::string_view n) const override { return "unset " + std::string(n); }

    std::string init_script(const InitOptions& o) const override {
        std::string out =
            "# cudaenv shell integration for bash. Add to ~/.bashrc:  eval \"$(cudaenv init bash)\"\n"
            "__cudaenv_bin=" + quote(o.exe) + "\n" +
            posix_cudaenv_function("bash", o.auto_switch);
        if (!o.auto_switch) return out;
        // PROMPT_COMMAND runs before each prompt; ours goes first (keeping $?)
        // so the user's own prompt code already sees the new pair. bash 5.1
        // also allows an array there.
        return out + posix_autoswitch_hook("bash") +
               "case \";${PROMPT_COMMAND[*]-};\" in\n"
               "  *__cudaenv_hook*) ;;\n"
               "  *)\n"
               "    if [ -n \"${PROMPT_COMMAND+x}\" ] && [ \"${#PROMPT_COMMAND[@]}\" -gt 1 ]; then\n"
               "      PROMPT_COMMAND=(__cudaenv_hook \"${PROMPT_COMMAND[@]}\")\n"
               "    else\n"
               "      __cudaenv_nl=$'\\n'\n"
               "      PROMPT_COMMAND=\"__cudaenv_hook${PROMPT_COMMAND:+$__cudaenv_nl$PROMPT_COMMAND}\"\n"
               "      unset __cudaenv_nl\n"
               "    fi ;;\n"
               "esac\n";
    }

    std::string completion_script(const std::vector<std::string>& commands) const override {
        return "# cudaenv completion for bash\n"
               "_cudaenv_complete() {\n"
               "  local cur=\"${COMP_WORDS[COMP_CWORD]}\"\n"
               "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
               "    COMPREPLY=($(compgen -W " + quote(str::join(commands, " ")) + " -- \"$cur\"))\n"
               "    return\n"
               "  fi\n"
               "  case \"${COMP_WORDS[1]}\" in\n"
               "    use|shell|local|global|env|exec|uninstall|check|pair)\n"
               "      COMPREPLY=($(compgen -W \"system $(command cudaenv list --bare 2>/dev/null)\" -- \"$cur\")) ;;\n"
               "    init|completions)\n"
               "      COMPREPLY=($(compgen -W 'bash zsh fish pwsh powershell cmd' -- \"$cur\")) ;;\n"
               "    add|discover)\n"
               "      COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
               "  esac\n"
               "}\n"
               "complete -F _cudaenv_complete cudaenv\n";
    }
};

}  // namespace

std::unique_ptr<Shell> make_bash() { return std::make_unique<Bash>(); }

}  // namespace cudaenv
