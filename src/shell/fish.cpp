// fish: single quotes where only \ and ' are escaped; PATH-like variables are
// lists in fish, so they are set element by element.
#include "shell/shell.hpp"
#include "shell/template.hpp"

#include "core/pathlist.hpp"

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

    // shell/fish/init.fish.
    std::string init_script(const InitOptions& o) const override {
        return fill_template("fish/init.fish", integration_args(*this, o, " "));
    }

    std::string completion_script() const override {
        return fill_template("fish/completion.fish", TemplateArgs(*this));
    }
};

}  // namespace

std::unique_ptr<Shell> make_fish() { return std::make_unique<Fish>(); }

}  // namespace cudaenv
