// bash: POSIX single quotes; the integration is a function that evaluates
// what `cudaenv use/shell/deactivate` prints and passes everything else on.
#include "shell/shell.hpp"
#include "shell/template.hpp"

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

    // shell/bash/init.bash (with shell/posix/*.sh).
    std::string init_script(const InitOptions& o) const override {
        return fill_template("bash/init.bash", integration_args(*this, o, "|"));
    }

    std::string completion_script() const override {
        return fill_template("bash/completion.bash", TemplateArgs(*this));
    }
};

}  // namespace

std::unique_ptr<Shell> make_bash() { return std::make_unique<Bash>(); }

}  // namespace cudaenv
