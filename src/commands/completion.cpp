#include "commands/completion.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "commands/cli_words.hpp"
#include "commands/context.hpp"
#include "export/formats.hpp"
#include "shell/shells.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

using Kind = Completion::Kind;

std::vector<std::string> specs(Context& ctx) {
    std::vector<std::string> out = {"system"};
    try {
        auto& store = ctx.store();
        const auto toolkits = store.toolkits();
        const auto cudnns = store.cudnns();
        // Every pair of a store of ordinary size; of a store of thousands,
        // each toolkit's default pair (as `list` shows), so TAB stays instant.
        auto pairs = toolkits.size() * cudnns.size() <= 4096 ? all_pairs(store, toolkits, cudnns)
                                                             : default_pairs(store, toolkits, cudnns);
        for (auto& s : unique_specs(pairs, toolkits, cudnns)) out.push_back(std::move(s));
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

// Where the command's name is among the words before the one completed:
// after the global options (`--log-level` takes a value).
size_t command_at(const std::vector<std::string>& before) {
    size_t at = 0;
    while (at < before.size() && before[at].starts_with("-")) at += before[at] == "--log-level" ? 2 : 1;
    return at;
}

Completion candidates(std::span<const CommandRow> table, Context& ctx, const std::vector<std::string>& words) {
    const auto& cur = words.back();
    std::vector<std::string> before(words.begin(), words.end() - 1);
    const size_t at = command_at(before);
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

const CommandRow* completed_command(std::span<const CommandRow> table, const std::vector<std::string>& words) {
    if (words.empty()) return nullptr;
    std::vector<std::string> before(words.begin(), words.end() - 1);
    const size_t at = command_at(before);
    return at < before.size() ? find_command(table, before[at]) : nullptr;
}

Completion complete(std::span<const CommandRow> table, Context& ctx, const std::vector<std::string>& words) {
    if (words.empty()) return complete(table, ctx, {""});
    auto c = candidates(table, ctx, words);
    std::erase_if(c.words, [&](const std::string& w) { return !w.starts_with(words.back()); });
    return c;
}

}  // namespace cudaenv
