// zsh: the same quoting as bash; its own completion system.
#include "shell/shell.hpp"
#include "shell/template.hpp"

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

    // shell/zsh/init.zsh (with shell/posix/*.sh).
    std::string init_script(const InitOptions& o) const override {
        return fill_template("zsh/init.zsh", integration_args(*this, o, "|"));
    }

    std::string completion_script() const override {
        return fill_template("zsh/completion.zsh", TemplateArgs(*this));
    }
};

}  // namespace

std::unique_ptr<Shell> make_zsh() { return std::make_unique<Zsh>(); }

}  // namespace cudaenv
