// The shell templates of shell/ and the command table they are filled from.
#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <stdexcept>

#include "app.hpp"
#include "commands/context.hpp"
#include "shell/commands.hpp"
#include "shell/profile_lines.hpp"
#include "shell/shell.hpp"
#include "shell/template.hpp"
#include "util/embedded.hpp"

using namespace cudaenv;

namespace {
bool has(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("every file of shell/ is embedded under its path below shell/") {
    for (const char* p : {"bash/init.bash", "bash/completion.bash", "zsh/init.zsh", "zsh/completion.zsh",
                          "fish/init.fish", "fish/completion.fish", "pwsh/init.ps1", "pwsh/run.ps1",
                          "pwsh/cudaenv.ps1", "pwsh/completion.ps1", "cmd/cudaenv.cmd", "cmd/autorun.cmd",
                          "posix/function.sh", "posix/hook.sh"})
        CHECK_MESSAGE(embedded::find(p).has_value(), p);
    CHECK(embedded::find("compat.toml").has_value());  // src/data/ keeps plain names
}

TEST_CASE("values reach a template only through the shell's quote()") {
    const std::string exe = "/opt/it's $(id) `id`/cudaenv";
    for (const auto& name : {"bash", "zsh", "fish", "pwsh"}) {
        auto sh = make_shell(name);
        InitOptions o{exe, "/store", true};
        auto text = sh->init_script(o);
        CAPTURE(name);
        CHECK(has(text, sh->quote(exe)));
        CHECK_FALSE(has(text, "@CUDAENV_EXE@"));
        CHECK_FALSE(has(text, "# @if"));
        CHECK_FALSE(has(text, "# @include"));
    }
}

TEST_CASE("# @if keeps or drops whole sections") {
    for (const auto& name : {"bash", "zsh", "fish", "pwsh"}) {
        auto sh = make_shell(name);
        CAPTURE(name);
        CHECK(has(sh->init_script({"/x", "/s", true}), "__cudaenv_hook"));
        CHECK_FALSE(has(sh->init_script({"/x", "/s", false}), "__cudaenv_hook"));
    }
    // Only zsh's functions reset the user's options.
    CHECK(has(make_shell("zsh")->init_script({"/x", "/s", true}), "emulate -L zsh"));
    CHECK_FALSE(has(make_shell("bash")->init_script({"/x", "/s", true}), "emulate"));
}

TEST_CASE("a missing template or value is a bug that shows at once") {
    auto sh = make_shell("bash");
    CHECK_THROWS_AS(fill_template("bash/no-such-file", TemplateArgs(*sh)), std::logic_error);
    CHECK_THROWS_AS(fill_template("bash/init.bash", TemplateArgs(*sh).flag("AUTO_SWITCH")), std::logic_error);
}

TEST_CASE("the command table") {
    auto names = [](bool (*pred)(const CommandInfo&)) { return commands_where(pred); };
    CHECK(names([](const CommandInfo& c) { return c.evaluated; }) ==
          std::vector<std::string>{"use", "shell", "deactivate"});
    CHECK(names([](const CommandInfo& c) { return c.reruns_hook; }) == std::vector<std::string>{"deactivate", "local"});
    SUBCASE("names only commands that exist, hidden exactly where the table says") {
        CLI::App app;
        Context ctx;
        register_all_commands(app, ctx);
        for (const auto& c : command_table()) {
            CAPTURE(c.name);
            const CLI::App* sub = nullptr;
            CHECK_NOTHROW(sub = app.get_subcommand(std::string(c.name)));
            if (sub) CHECK(sub->get_group().empty() == c.hidden);
        }
        // ... and every hidden command is in the table.
        for (const auto* sub : app.get_subcommands([](const CLI::App* a) { return a->get_group().empty(); })) {
            CAPTURE(sub->get_name());
            CHECK(command_hidden(sub->get_name()));
        }
    }
    SUBCASE("completions name every spec command") {
        for (const auto& name : {"bash", "zsh", "fish", "pwsh"}) {
            auto text = make_shell(name)->completion_script({"use", "list"});
            CAPTURE(name);
            for (const auto& c : command_table())
                if (c.arg == CommandArg::spec) CHECK(has(text, std::string(c.name)));
        }
    }
}

TEST_CASE("the hint when the integration is not loaded names that OS's shells") {
    auto windows = integration_setup_hint(true), posix = integration_setup_hint(false);
    CHECK(windows.find("Invoke-Expression (& cudaenv init pwsh | Out-String)") != std::string::npos);
    CHECK(windows.find("cudaenv init cmd") != std::string::npos);
    CHECK(windows.find("bashrc") == std::string::npos);
    CHECK(posix.find("eval \"$(cudaenv init bash)\"") != std::string::npos);
    CHECK(posix.find("cudaenv init fish | source") != std::string::npos);
    CHECK(posix.find("PowerShell") == std::string::npos);
}
