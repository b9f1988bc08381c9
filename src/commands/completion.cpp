#include "commands/completion.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "commands/context.hpp"
#include "export/formats.hpp"
#include "shell/shells.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

using Kind = Completion::Kind;

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

const CLI::App* subcommand_named(const CLI::App& app, const std::string& name) {
    for (const auto* s : app.get_subcommands({}))
        if (s->get_name() == name) return s;
    return nullptr;
}

std::vector<std::string> specs(Context& ctx) {
    std::vector<std::string> out = {"system"};
    try {
        auto& store = ctx.store();
        auto pairs = all_pairs(store);
        for (auto& s : unique_specs(pairs, store)) out.push_back(std::move(s));
    } catch (const Error&) {
        // A store that cannot be read offers only `system`; `cudaenv list` says why.
    }
    return out;
}

Completion of_kind(CommandArg kind, Context& ctx) {
    switch (kind) {
    case CommandArg::spec: return {Kind::words, specs(ctx)};
    case CommandArg::shell: return {Kind::words, shell_names()};
    case CommandArg::folder: return {Kind::folders, {}};
    case CommandArg::file: return {Kind::files, {}};
    case CommandArg::format: {
        Completion c;
        for (const auto& f : exporting::formats()) c.words.emplace_back(f.name);
        return c;
    }
    case CommandArg::none: break;
    }
    return {};
}

// The command's words after its name: which (sub)command they reached, how
// many positional arguments they hold, and whether the last one is an
// option waiting for its value.
struct Walk {
    const CLI::App* app = nullptr;
    size_t positionals = 0;
    const CLI::Option* wants_value = nullptr;
    bool after_separator = false;
};

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

Completion candidates(std::span<const CommandRow> table, Context& ctx, const std::vector<std::string>& words) {
    const auto& cur = words.back();
    std::vector<std::string> before(words.begin(), words.end() - 1);
    // Global options before the command.
    size_t at = 0;
    while (at < before.size() && before[at].starts_with("-")) at += before[at] == "--log-level" ? 2 : 1;
    if (at >= before.size()) {
        Completion c;
        if (cur.starts_with("-")) c.words = {"--help", "--version", "--verbose", "--log-level"};
        else
            for (const auto& r : table)
                if (!r.hidden) c.words.emplace_back(r.name);
        return c;
    }
    const auto* row = find_command(table, before[at]);
    if (!row) return {};
    CLI::App app;
    auto* cmd = app.add_subcommand(std::string(row->name), std::string(row->summary));
    row->define(cmd, ctx);
    auto w = walk(*cmd, std::vector<std::string>(before.begin() + static_cast<std::ptrdiff_t>(at) + 1, before.end()));
    if (w.wants_value) {
        if (w.wants_value->check_lname("shell")) return of_kind(CommandArg::shell, ctx);
        return {Kind::files, {}};
    }
    if (cur.starts_with("-") && !w.after_separator) {
        auto names = option_names(*w.app);
        if (std::find(names.begin(), names.end(), "--help") == names.end()) names.emplace_back("--help");
        return {Kind::words, names};
    }
    if (w.app == cmd && w.positionals == 0 && !subcommand_names(*cmd).empty())
        return {Kind::words, subcommand_names(*cmd)};
    if (w.app != cmd) {  // a subcommand's own positional: completed when it is named `spec`
        const auto* spec = w.app->get_option_no_throw("spec");
        return spec && !spec->nonpositional() && w.positionals == 0 ? of_kind(CommandArg::spec, ctx) : Completion{};
    }
    return of_kind(w.positionals == 0 ? row->arg : row->rest, ctx);
}

}  // namespace

Completion complete(std::span<const CommandRow> table, Context& ctx, const std::vector<std::string>& words) {
    if (words.empty()) return complete(table, ctx, {""});
    auto c = candidates(table, ctx, words);
    std::erase_if(c.words, [&](const std::string& w) { return !w.starts_with(words.back()); });
    return c;
}

}  // namespace cudaenv
