// The shell templates of shell/ and the command table they are filled from.
#include <doctest/doctest.h>

#include "test_support.hpp"

#include <stdexcept>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "shell/profile_lines.hpp"
#include "shell/shell.hpp"
#include "shell/template.hpp"
#include "util/embedded.hpp"

using namespace cudaenv;

namespace {
using testsupport::contains;
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
        InitOptions o{exe, "/store", true, integration_commands()};
        auto text = sh->init_script(o);
        CAPTURE(name);
        CHECK(contains(text, sh->quote(exe)));
        CHECK_FALSE(contains(text, "@CUDAENV_EXE@"));
        CHECK_FALSE(contains(text, "# @if"));
        CHECK_FALSE(contains(text, "# @include"));
    }
}

TEST_CASE("# @if keeps or drops whole sections") {
    for (const auto& name : {"bash", "zsh", "fish", "pwsh"}) {
        auto sh = make_shell(name);
        CAPTURE(name);
        CHECK(contains(sh->init_script({"/x", "/s", true, integration_commands()}), "__cudaenv_hook"));
        CHECK_FALSE(contains(sh->init_script({"/x", "/s", false, integration_commands()}), "__cudaenv_hook"));
    }
    // Only zsh's functions reset the user's options.
    CHECK(contains(make_shell("zsh")->init_script({"/x", "/s", true, integration_commands()}), "emulate -L zsh"));
    CHECK_FALSE(contains(make_shell("bash")->init_script({"/x", "/s", true, integration_commands()}), "emulate"));
}

TEST_CASE("a missing template or value is a bug that shows at once") {
    auto sh = make_shell("bash");
    CHECK_THROWS_AS(fill_template("bash/no-such-file", TemplateArgs(*sh)), std::logic_error);
    CHECK_THROWS_AS(fill_template("bash/init.bash", TemplateArgs(*sh).flag("AUTO_SWITCH")), std::logic_error);
}

TEST_CASE("the command table gives the integrations their lists") {
    auto names = [](bool CommandInfo::*flag) {
        std::vector<std::string> out;
        for (const auto& c : integration_commands())
            if (c.*flag) out.emplace_back(c.name);
        return out;
    };
    CHECK(names(&CommandInfo::evaluated) == std::vector<std::string>{"use", "shell", "deactivate"});
    CHECK(names(&CommandInfo::reruns_hook) == std::vector<std::string>{"deactivate", "local"});
    SUBCASE("every init script evaluates exactly those") {
        for (const auto& name : {"bash", "zsh"}) {
            auto text = make_shell(name)->init_script({"/x", "/s", true, integration_commands()});
            CAPTURE(name);
            CHECK(contains(text, "'use'|'shell'|'deactivate'"));
        }
    }
    SUBCASE("completion scripts are generic: they ask `cudaenv __complete`") {
        for (const auto& s : shells()) {
            if (s.name == "cmd") continue;  // cmd.exe has no programmable completion
            CAPTURE(s.name);
            CHECK(contains(s.make()->completion_script(), "cudaenv __complete"));
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
