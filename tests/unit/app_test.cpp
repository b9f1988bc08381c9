// The command line as run_app() sees it: which commands are set up for a
// start, and spec words that CLI11 would take as its own syntax.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app.hpp"
#include "commands/context.hpp"
#include "platform/platform.hpp"
#include "shell/commands.hpp"
#include "test_support.hpp"
#include "util/fs.hpp"

using namespace cudaenv;

namespace {

struct Run {
    int status = 0;
    std::string out, err;
};

// run_app() in this process, its store an empty temporary folder.
Run run(std::vector<std::string> args) {
    testsupport::TempDir store("app");
    auto old_root = platform::get_env("CUDAENV_ROOT");
    platform::set_env("CUDAENV_ROOT", fsx::to_utf8(store.path()));
    args.insert(args.begin(), "cudaenv");
    std::ostringstream out, err;
    auto* old_out = std::cout.rdbuf(out.rdbuf());
    auto* old_err = std::cerr.rdbuf(err.rdbuf());
    Run r;
    r.status = run_app(args, all_commands());
    std::cout.rdbuf(old_out);
    std::cerr.rdbuf(old_err);
    old_root ? platform::set_env("CUDAENV_ROOT", *old_root) : platform::unset_env("CUDAENV_ROOT");
    r.out = out.str();
    r.err = err.str();
    return r;
}

const std::string spec_hint =
    "hint: a spec looks like 11.8, 12, 12.4.1, 11.8+8.9.7, 12+9, 12.4+none, 13.0@pip or system\n";

}  // namespace

TEST_CASE("every command of the table is registered, each by its own entry") {
    std::set<std::string> table, registered;
    for (const auto& c : command_table()) table.emplace(c.name);
    for (const auto& c : all_commands()) registered.emplace(c.name);
    CHECK(table == registered);

    for (const auto& c : all_commands()) {
        CAPTURE(c.name);
        CLI::App app;
        Context ctx;
        c.add(app, ctx);  // what a start with this command sets up
        CHECK_NOTHROW(app.get_subcommand(std::string(c.name)));
    }
    CLI::App app;
    Context ctx;
    register_all_commands(app, ctx);
    CHECK(app.get_subcommands({}).size() == registered.size());
}

TEST_CASE("a start sets up what the command line needs") {
    SUBCASE("--help lists every visible command") {
        auto r = run({"--help"});
        CHECK(r.status == 0);
        for (const auto& c : command_table())
            if (!c.hidden) CHECK_MESSAGE(r.out.find("\n  " + std::string(c.name) + " ") != std::string::npos, c.name);
    }
    SUBCASE("--version alone") {
        auto r = run({"--version"});
        CHECK(r.status == 0);
        CHECK(r.out.starts_with("cudaenv "));
    }
    SUBCASE("an unknown command or none") {
        CHECK(run({"no-such-command"}).status == 2);
        CHECK(run({}).err.starts_with("cudaenv: error: A subcommand is required\n"));
        CHECK(run({"-v"}).status == 2);
    }
    SUBCASE("a command after global flags, with its own help") {
        auto r = run({"-v", "--log-level", "info", "env", "--help"});
        CHECK(r.status == 0);
        CHECK(r.out.find("Usage: cudaenv env") != std::string::npos);
    }
    SUBCASE("completions name every visible command, though they are not the one named") {
        auto r = run({"completions", "bash"});
        CHECK(r.status == 0);
        for (const auto& c : command_table())
            if (!c.hidden) CHECK_MESSAGE(r.out.find(std::string(c.name)) != std::string::npos, c.name);
    }
}

TEST_CASE("a spec CLI11 would read as its own syntax is an invalid spec, for every command taking one") {
    for (const auto& c : command_table()) {
        if (c.arg != CommandArg::spec) continue;
        std::string name(c.name);
        std::vector<std::vector<std::string>> cases = {{name, "++"}};  // CLI11: the end of a subcommand
        // trace reads its own options and `--` (commands/trace.cpp): only `++` reaches CLI11 there.
        if (name != "trace") {
            cases.push_back({name, "--"});  // the end of the options
            cases.push_back({name, "-x"});  // an option
        }
        for (const auto& args : cases) {
            CAPTURE(args.back());
            CAPTURE(name);
            auto r = run(args);
            CHECK(r.status == 2);
            CHECK(r.err == "cudaenv: error: invalid spec '" + args.back() + "'\n" + spec_hint);
            CHECK(r.out.empty());
        }
    }
    SUBCASE("after options and their values, and after global flags") {
        for (const auto& args : std::vector<std::vector<std::string>>{{"env", "--shell", "bash", "++"},
                                                                       {"check", "--all", "++"},
                                                                       {"uninstall", "-fq", "++"},
                                                                       {"-v", "use", "++"},
                                                                       {"global", "--", "++"},
                                                                       {"exec", "++", "--", "true"},
                                                                       {"trace", "++", "--", "true"}}) {
            CAPTURE(args[1]);
            auto r = run(args);
            CHECK(r.status == 2);
            CHECK(r.err == "cudaenv: error: invalid spec '++'\n" + spec_hint);
        }
    }
    SUBCASE("`--` before a spec is still a separator, an option's value is still a value") {
        auto r = run({"env", "--", "12.4"});  // the spec is read: the empty store has no 12.4
        CHECK(r.err.find("invalid spec") == std::string::npos);
        CHECK(r.err.find("--shell") != std::string::npos);
        r = run({"use", "--for", "++"});
        CHECK(r.err.find("--for") != std::string::npos);
    }
}
