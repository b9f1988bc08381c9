#include "app.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <optional>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "commands/context.hpp"
#include "util/strings.hpp"
#include "core/spec.hpp"
#include "cudaenv_version.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/report.hpp"

namespace cudaenv {

namespace {

void setup_logging(const std::string& level) {
    // Made directly (not through spdlog's registry, which refuses a second
    // logger of one name: run_app can run twice in one process in tests).
    auto logger = std::make_shared<spdlog::logger>("cudaenv", std::make_shared<spdlog::sinks::stderr_sink_st>());
    logger->set_pattern("cudaenv: %l: %v");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(level));
}

bool global_flag(const std::string& a) {
    return a == "-v" || a == "--verbose" || a == "--version" || a.starts_with("--log-level=");
}

// Where the command's name is in argv: after global flags only. 0 when there
// is none, or an option CLI11 must see first (--help, an unknown option).
size_t command_position(const std::vector<std::string>& args) {
    for (size_t i = 1; i < args.size(); ++i) {
        if (args[i] == "--log-level") ++i;
        else if (!global_flag(args[i])) return args[i].starts_with("-") ? 0 : i;
    }
    return 0;
}

// What argv needs set up: the one command it names; nothing for --version
// alone; otherwise every command (--help lists them, errors name them).
struct Needed {
    bool all = true;
    const CommandRow* command = nullptr;
};

Needed needed(const std::vector<std::string>& args, std::span<const CommandRow> commands) {
    auto at = command_position(args);
    if (at == 0) {
        bool version = std::find(args.begin(), args.end(), "--version") != args.end();
        bool only_flags = std::all_of(args.begin() + 1, args.end(), [&](const std::string& a) {
            return global_flag(a) || a == "--log-level";  // its value is checked by CLI11 with all set up
        });
        return {!(version && only_flags), nullptr};
    }
    if (const auto* c = find_command(commands, args[at])) return {false, c};
    return {};
}

// Optimal string alignment distance: `lsit` is one step from `list`.
size_t distance(std::string_view a, std::string_view b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

[[noreturn]] void unknown_command(const std::string& word, std::span<const CommandRow> commands) {
    const std::string help = "`cudaenv --help` lists every command";
    const CommandRow* best = nullptr;
    size_t best_d = 3;  // at most two edits away
    for (const auto& c : commands) {
        auto d = distance(word, c.name);
        if (c.hidden || d >= best_d || d >= c.name.size()) continue;
        best = &c;
        best_d = d;
    }
    throw UsageError("unknown command '" + str::visible(word.substr(0, 40)) + "'",
                     best ? "did you mean `cudaenv " + std::string(best->name) + "`? (" + help + ")" : help);
}

// CLI11 takes some words as its own syntax wherever they stand: `++` ends a
// subcommand, `--` ends the options, `-x` is an option. No spec looks like
// that, so the word a command would take as its spec is checked here:
// otherwise the command runs as if given none (`global ++` printed the
// default). Stops at the first plain word (CLI11 passes it on as it is).
void check_spec_word(const CLI::App& cmd, const std::vector<std::string>& args, size_t at) {
    auto option = [&](const std::string& name) {
        const auto* o = cmd.get_option_no_throw(name);
        return o ? o : cmd.get_parent()->get_option_no_throw(name);  // global flags fall through
    };
    for (size_t i = at + 1; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--") {
            if (i + 1 == args.size()) Spec::parse_or_throw(a);
            return;  // a separator: what follows is positional, `++` included
        }
        if (a == "++") Spec::parse_or_throw(a);
        if (!a.starts_with("-") || a.size() == 1) return;
        bool is_long = a.starts_with("--");
        auto name = is_long ? a.substr(0, a.find('=')) : a.substr(0, 2);  // -fq: -f then -q
        const auto* o = option(name);
        if (!o) Spec::parse_or_throw(a);
        bool inline_value = is_long ? name.size() < a.size() : a.size() > 2;
        bool takes_value = std::min(o->get_type_size_min(), o->get_items_expected_min()) > 0;  // as CLI11 reads it
        if (takes_value && !inline_value) ++i;
    }
}

// CLI11's "A subcommand is required" says neither which command wants one
// nor what they are: `cudaenv mirror` alone names create and verify.
std::optional<std::pair<std::string, std::string>> missing_subcommand(const CLI::App& app) {
    const CLI::App* at = &app;
    std::string path = "cudaenv";
    for (auto parsed = at->get_subcommands(); !parsed.empty(); parsed = at->get_subcommands()) {
        at = parsed.front();
        path += " " + at->get_name();
    }
    if (at->get_require_subcommand_min() == 0) return std::nullopt;
    if (at == &app) return std::pair{std::string("no command given"), std::string("`cudaenv --help` lists every command")};
    std::vector<std::string> names, described;
    for (const auto* sub : at->get_subcommands([](const CLI::App* s) { return !s->get_group().empty(); })) {
        names.push_back(sub->get_name());
        described.push_back(sub->get_name() + ": " + sub->get_description());
    }
    if (names.empty()) return std::nullopt;
    return std::pair{"`" + path + "` needs a subcommand: " + str::join(names, ", "),
                     str::join(described, "; ") + " (`" + path + " <subcommand> --help` says more)"};
}

void define(CLI::App& app, Context& ctx, const CommandRow& c) {
    auto* cmd = app.add_subcommand(std::string(c.name), std::string(c.summary));
    if (c.hidden) cmd->group("");
    c.define(cmd, ctx);
}

}  // namespace

int run_app(int argc, char** argv, std::span<const CommandRow> commands) {
    platform::init_console();
    return run_app(platform::utf8_args(argc, argv), commands);
}

int run_app(std::vector<std::string> args, std::span<const CommandRow> commands) {
    if (auto at = command_position(args); at && args[at] == "trace" && at + 1 < args.size() &&
                                          args[at + 1].starts_with("-") && args[at + 1] != "--help" &&
                                          args[at + 1] != "-h")
        args.insert(args.begin() + static_cast<std::ptrdiff_t>(at) + 1, ":active");  // a positional: see commands/trace.cpp
    std::vector<const char*> cargs;
    for (const auto& a : args) cargs.push_back(a.c_str());

    CLI::App app{"cudaenv: side-by-side CUDA toolkit + cuDNN pairs, switched per shell or per project", "cudaenv"};
    app.set_version_flag("--version", "cudaenv " CUDAENV_VERSION_STRING);
    app.require_subcommand(1);
    app.fallthrough();
    bool verbose = false;
    std::string log_level = "warn";
    app.add_flag("-v,--verbose", verbose, "Log what cudaenv does (same as --log-level debug)");
    app.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    app.footer("Docs: README.md and docs/ in the cudaenv sources. Store: $CUDAENV_ROOT.");

    // Setting up every command and its options is most of a start (about
    // 1.2 M instructions for 26 commands): set up only the one asked for.
    Context ctx;
    ctx.commands = commands;
    auto need = needed(args, commands);
    if (need.all)
        for (const auto& c : commands) define(app, ctx, c);
    else if (need.command)
        define(app, ctx, *need.command);
    app.parse_complete_callback([&] {
        if (auto env_level = platform::get_env("CUDAENV_LOG"); env_level && log_level == "warn") log_level = *env_level;
        setup_logging(verbose ? "debug" : log_level);
    });

    // Under the shell integration, stdout is evaluated as code: help and
    // version text must go to stderr there.
    bool eval_mode = platform::get_env("CUDAENV_SHELL").has_value();
    try {
        if (auto at = command_position(args); at && !need.command)
            unknown_command(args[at], commands);
        if (need.command && need.command->arg == CommandArg::spec)
            check_spec_word(*app.get_subcommand(std::string(need.command->name)), args, command_position(args));
        app.parse(static_cast<int>(cargs.size()), cargs.data());
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e, eval_mode ? std::cerr : std::cout, std::cerr);
    } catch (const CLI::ParseError& e) {
        if (auto missing = dynamic_cast<const CLI::RequiredError*>(&e) ? missing_subcommand(app) : std::nullopt) {
            print_error(missing->first, missing->second);
            return 2;
        }
        print_error(e.what(), "run `cudaenv --help` or `cudaenv <command> --help`");
        return 2;
    } catch (const Error& e) {
        print_error(e.what(), e.hint());
        return e.exit_code();
    } catch (const std::exception& e) {
        print_error(e.what(), "");
        return 1;
    }
    std::cout.flush();
    if (!std::cout) {
        print_error("cannot write the output", "");
        return 1;
    }
    return ctx.exit_code;
}

}  // namespace cudaenv
