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
    r.status = run_app(args, command_table());
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

TEST_CASE("every row of the command table defines its command, alone as a start does") {
    std::set<std::string> names;
    for (const auto& c : command_table()) {
        CAPTURE(c.name);
        CHECK(names.insert(std::string(c.name)).second);  // each name once
        CHECK((c.hidden || !c.summary.empty()));
        CLI::App app;
        Context ctx;
        auto* cmd = app.add_subcommand(std::string(c.name), std::string(c.summary));
        CHECK_NOTHROW(c.define(cmd, ctx));
        CHECK(app.get_subcommands({}).size() == 1);  // it adds nothing beside itself
    }
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
        CHECK(run({"no-such-command"}).err ==
              "cudaenv: error: unknown command 'no-such-command'\nhint: `cudaenv --help` lists every command\n");
        CHECK(run({}).err == "cudaenv: error: no command given\nhint: `cudaenv --help` lists every command\n");
        // A command that wants a subcommand names them (issue 40 D12: `cudaenv mirror` said only
        // "A subcommand is required").
        auto kernel = run({"kernel"});
        CHECK(kernel.status == 2);
        CHECK(kernel.err.starts_with("cudaenv: error: `cudaenv kernel` needs a subcommand: add, list, remove\nhint: add: "));
        CHECK(run({"-v"}).status == 2);
    }
    SUBCASE("a mistyped command: the nearest one is named") {
        for (auto [typed, meant] : {std::pair{"lsit", "list"}, {"isntall", "install"}, {"doctr", "doctor"},
                                    {"curent", "current"}, {"exprot", "export"}}) {
            auto r = run({typed});
            CAPTURE(typed);
            CHECK(r.status == 2);
            CHECK(r.err == "cudaenv: error: unknown command '" + std::string(typed) + "'\nhint: did you mean `cudaenv " +
                               meant + "`? (`cudaenv --help` lists every command)\n");
        }
        CHECK(run({"--verbose", "lsit"}).err.find("did you mean `cudaenv list`") != std::string::npos);
    }
    SUBCASE("control bytes in what is echoed are escaped") {
        CHECK(run({"li\x1b[2Jst"}).err.starts_with("cudaenv: error: unknown command 'li\\x1b[2Jst'\n"));
    }
    SUBCASE("a command after global flags, with its own help") {
        auto r = run({"-v", "--log-level", "info", "env", "--help"});
        CHECK(r.status == 0);
        CHECK(r.out.find("Usage: cudaenv env") != std::string::npos);
    }
    SUBCASE("completion offers every visible command, from the table") {
        auto r = run({"__complete", "0", "--", ""});
        CHECK(r.status == 0);
        for (const auto& c : command_table())
            CHECK_MESSAGE((r.out.find("\n" + std::string(c.name) + "\n") != std::string::npos ||
                           r.out.starts_with(std::string(c.name) + "\n")) == !c.hidden,
                          c.name);
    }
}

TEST_CASE("what an error echoes from outside reaches the terminal escaped") {
    // ESC, DEL, a C1 control and bytes that are not UTF-8, in a spec and in --for.
    for (const auto& [arg, shown] : std::vector<std::pair<std::string, std::string>>{
             {"12.4\x1b[2J", "12.4\\x1b[2J"}, {"12\x7f", "12\\x7f"}, {"12\xff\xfe", "12\\xff\\xfe"},
             {"12\xc2\x9b" "1m", "12\\u009b1m"}}) {
        CAPTURE(shown);
        auto r = run({"env", arg, "--json"});
        CHECK(r.status == 2);
        CHECK(r.err == "cudaenv: error: invalid spec '" + shown + "'\n" + spec_hint);
        r = run({"local", "--for", "torch==" + arg});
        CHECK(r.status == 2);
        CHECK(r.err.starts_with("cudaenv: error: '" + shown + "' is not a version\n"));
        r = run({"local", "--for", arg});
        CHECK(r.err.starts_with("cudaenv: error: --for wants <framework>==<version>, got '" + shown + "'\n"));
    }
    auto r = run({"init", "ba\x1bsh"});
    CHECK(r.err.starts_with("cudaenv: error: unknown shell 'ba\\x1bsh'\n"));
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
