#include "commands/cli_words.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

namespace cudaenv {

namespace {

bool takes_value(const CLI::Option& o) { return std::min(o.get_type_size_min(), o.get_items_expected_min()) > 0; }

const CLI::Option* option_named(const CLI::App& app, const std::string& word) {
    auto name = word.substr(0, word.find('='));
    for (const auto* o : app.get_options())
        for (const auto& n : o->get_lnames())
            if (name == "--" + n) return o;
    for (const auto* o : app.get_options())
        for (const auto& n : o->get_snames())
            if (name.size() >= 2 && name.substr(0, 2) == "-" + n) return o;
    return nullptr;
}

const CLI::App* subcommand_named(const CLI::App& app, const std::string& name) {
    for (const auto* s : app.get_subcommands({}))
        if (s->get_name() == name) return s;
    return nullptr;
}

}  // namespace

std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> out;
    for (const auto* o : app.get_options()) {
        for (const auto& n : o->get_lnames()) out.push_back("--" + n);
        for (const auto& n : o->get_snames()) out.push_back("-" + n);
    }
    return out;
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> out;
    for (const auto* s : app.get_subcommands({}))
        if (!s->get_group().empty()) out.push_back(s->get_name());
    return out;
}

Walk walk(const CLI::App& cmd, const std::vector<std::string>& typed) {
    Walk w{&cmd};
    for (const auto& word : typed) {
        if (w.wants_value) {
            w.wants_value = nullptr;
            continue;
        }
        if (!w.after_separator && word == "--") {
            w.after_separator = true;
            continue;
        }
        if (!w.after_separator && word.size() > 1 && word[0] == '-') {
            const auto* o = option_named(*w.app, word);
            if (o && takes_value(*o) && word.find('=') == std::string::npos && !(word[1] != '-' && word.size() > 2))
                w.wants_value = o;
            continue;
        }
        if (w.positionals == 0 && w.app == &cmd && !subcommand_names(cmd).empty()) {
            if (const auto* sub = subcommand_named(cmd, word)) {
                w.app = sub;
                continue;
            }
        }
        ++w.positionals;
    }
    return w;
}

}  // namespace cudaenv
