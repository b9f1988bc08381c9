#include "app.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "commands/context.hpp"
#include "cudaenv_version.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"

namespace cudaenv {

namespace {

void print_error(const std::string& message, const std::string& hint) {
    std::cerr << "cudaenv: error: " << message << "\n";
    if (!hint.empty()) std::cerr << "hint: " << hint << "\n";
}

void setup_logging(const std::string& level) {
    auto logger = spdlog::stderr_logger_st("cudaenv");
    logger->set_pattern("cudaenv: %l: %v");
    spdlog::set_default_logger(logger);
    spdlog::set_level(spdlog::level::from_str(level));
}

}  // namespace

int run_app(int argc, char** argv, CommandSet register_commands) {
    platform::init_console();
    auto args = platform::utf8_args(argc, argv);
    if (args.size() > 2 && args[1] == "trace" && args[2].starts_with("-") && args[2] != "--help" && args[2] != "-h")
        args.insert(args.begin() + 2, ":active");  // a positional: see commands/trace.cpp
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

    Context ctx;
    register_commands(app, ctx);

    app.parse_complete_callback([&] {
        if (auto env_level = platform::get_env("CUDAENV_LOG"); env_level && log_level == "warn") log_level = *env_level;
        setup_logging(verbose ? "debug" : log_level);
    });

    // Under the shell integration, stdout is evaluated as code: help and
    // version text must go to stderr there.
    bool eval_mode = platform::get_env("CUDAENV_SHELL").has_value();
    try {
        app.parse(static_cast<int>(cargs.size()), cargs.data());
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e, eval_mode ? std::cerr : std::cout, std::cerr);
    } catch (const CLI::ParseError& e) {
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

void register_all_commands(CLI::App& app, Context& ctx) {
    register_list(app, ctx);
    register_current(app, ctx);
    register_use(app, ctx);
    register_deactivate(app, ctx);
    register_local(app, ctx);
    register_global(app, ctx);
    register_env(app, ctx);
    register_init(app, ctx);
    register_exec(app, ctx);
    register_which(app, ctx);
    register_add(app, ctx);
    register_discover(app, ctx);
    register_pair(app, ctx);
    register_completions(app, ctx);
    register_hook_env(app, ctx);
    register_rehash(app, ctx);
    register_setup(app, ctx);
    register_install_forward(app, ctx);
    register_uninstall(app, ctx);
    register_check(app, ctx);
    register_doctor(app, ctx);
    register_export(app, ctx);
    register_kernel(app, ctx);
    register_trace(app, ctx);
}

}  // namespace cudaenv
