// Quoting: every backend's quote() and set_var() must give back the exact
// bytes. bash, zsh, fish and pwsh are run for real; cmd.exe cannot run here,
// so its output is checked against cmd's parsing rules by a small model.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <map>

#include "shell/shell.hpp"
#include "test_support.hpp"
#include "util/error.hpp"

using namespace cudaenv;
using testsupport::TempDir;

namespace {

// Values a user's environment or folder names may hold. No NUL (no
// environment can hold one) and valid UTF-8 (fish re-encodes invalid bytes).
const std::vector<std::string>& hostile_values() {
    static const std::vector<std::string> v = {
        "plain", "", " ", "two words", "  lead and trail  ", "it's", "''", "'\\''", "\\'", "say \"hi\"", "\"",
        "$HOME", "${HOME}", "$(touch /tmp/cudaenv-pwned)", "`touch /tmp/cudaenv-pwned`", "\\", "C:\\Program Files\\x\\",
        "trailing\\", "%PATH%", "100%", "%", "^", "a^b", "&", "a & b", "|", "<>", "(x)", "!", "!!", "!$", "a\nb",
        "\n", "\r\n", "tab\there", "[x]", "*", "?", "~", "~root", "#comment", "-n", "--", "{a,b}", ";", "a;b", "a:b",
        "@(1)", "$env:HOME", "$null", "`$x", "中文 日本語 한국어", "emoji 😀", "e\xCC\x81", "\xE2\x80\x98single\xE2\x80\x99",
        "\xE2\x80\x9A\xE2\x80\x9B", "\xE2\x80\x9C\xE2\x80\x9D", "it\xE2\x80\x99s \xE2\x80\x98q\xE2\x80\x99 and 'q'",
        "\x01\x02\x1b[31m", "end'", "'start", "a'\"'b",
    };
    return v;
}

#ifndef _WIN32
// Runs `cmd` and returns its stdout, byte for byte.
std::optional<std::string> run(const std::string& cmd) {
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return std::nullopt;
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    int rc = pclose(f);
    if (rc != 0) {
        MESSAGE("command failed (" << rc << "): " << cmd);
        return std::nullopt;
    }
    return out;
}

std::vector<std::string> split_nul(const std::string& s) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i)
        if (s[i] == '\0') {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

bool have(const std::string& exe) { return run("command -v " + exe + " >/dev/null 2>&1 && echo yes").value_or("") == "yes\n"; }

std::string pwsh_path() {
    const char* home = std::getenv("HOME");
    std::string p = std::string(home ? home : "") + "/.dotnet/tools/pwsh";
    if (testsupport::fs::exists(p)) return p;
    return have("pwsh") ? "pwsh" : "";
}

// Writes a script that prints quote(v) for every value, NUL-terminated, and
// runs it with the real shell.
std::optional<std::vector<std::string>> echo_quoted(const std::string& shell_name, const std::string& exe,
                                                    const std::vector<std::string>& values) {
    auto sh = make_shell(shell_name);
    TempDir dir("quote");
    std::string script;
    if (shell_name == "pwsh") script += "[Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false\n";
    for (const auto& v : values) {
        if (shell_name == "pwsh")
            script += "[Console]::Out.Write(" + sh->quote(v) + "); [Console]::Out.Write([char]0)\n";
        else
            script += "printf '%s\\0' " + sh->quote(v) + "\n";
    }
    auto file = dir / "script";
    testsupport::write(file, script);
    std::string cmd;
    if (shell_name == "pwsh")
        cmd = exe + " -NoProfile -NonInteractive -Command \"Invoke-Expression ([IO.File]::ReadAllText('" + file.string() +
              "', [Text.Encoding]::UTF8))\"";
    else
        cmd = exe + " " + file.string();
    auto out = run(cmd + " 2>/dev/null");
    if (!out) return std::nullopt;
    return split_nul(*out);
}

// Evaluates `code` in the real shell the way the integration does, then
// reads the exported environment back with printenv (nullopt: unset).
std::optional<std::vector<std::optional<std::string>>> run_and_read(const std::string& shell_name,
                                                                    const std::string& exe, const std::string& code,
                                                                    const std::vector<std::string>& names) {
    TempDir dir("setvar");
    auto code_file = dir / "code";
    testsupport::write(code_file, code);
    std::string script;
    // printenv prints the value and a newline, or nothing (exit 1) when unset:
    // each answer is "<flag><value>\n\0" so unset and empty differ.
    if (shell_name == "pwsh") {
        script = "[Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false\n"
                 "Invoke-Expression ([IO.File]::ReadAllText('" + code_file.string() + "', [Text.Encoding]::UTF8))\n";
        for (const auto& n : names)
            script += "$v = [Environment]::GetEnvironmentVariable('" + n +
                      "'); if ($null -eq $v) { [Console]::Out.Write(\"-`n\") } else { [Console]::Out.Write('+' + $v + \"`n\") }; "
                      "[Console]::Out.Write([char]0)\n";
    } else if (shell_name == "fish") {
        script = "source '" + code_file.string() + "'\n";
        for (const auto& n : names)
            script += "if /usr/bin/printenv " + n + " >/dev/null; printf '+'; /usr/bin/printenv " + n +
                      "; else; printf '%s\\n' -; end; printf '\\0'\n";
    } else {
        script = ". '" + code_file.string() + "'\n";
        for (const auto& n : names)
            script += "if /usr/bin/printenv " + n + " >/dev/null; then printf '+'; /usr/bin/printenv " + n +
                      "; else printf '%s\\n' -; fi; printf '\\0'\n";
    }
    auto file = dir / "script";
    testsupport::write(file, script);
    std::string cmd;
    if (shell_name == "pwsh")
        cmd = exe + " -NoProfile -NonInteractive -File " + file.string();
    else
        cmd = exe + " " + file.string();
    auto out = run(cmd + " 2>/dev/null");
    if (!out) return std::nullopt;
    std::vector<std::optional<std::string>> result;
    for (auto& s : split_nul(*out)) {
        if (s.empty() || s.back() != '\n') {
            result.push_back(std::string("<malformed answer: ") + s + ">");
            continue;
        }
        s.pop_back();
        if (s == "-") result.push_back(std::nullopt);
        else result.push_back(s.substr(1));
    }
    return result;
}

// Sets each name to its value with set_var() and reads them back.
std::optional<std::vector<std::optional<std::string>>> set_and_read(const std::string& shell_name,
                                                                    const std::string& exe,
                                                                    const std::vector<std::string>& names,
                                                                    const std::vector<std::string>& values) {
    EnvDiff diff;
    for (size_t i = 0; i < values.size(); ++i) diff.edits.push_back({names[i], EnvOp::set, values[i]});
    return run_and_read(shell_name, exe, render(*make_shell(shell_name), diff), names);
}

void check_shell(const std::string& shell_name, const std::string& exe) {
    const auto& values = hostile_values();
    auto marker = testsupport::fs::path("/tmp/cudaenv-pwned");
    std::error_code ec;
    testsupport::fs::remove(marker, ec);

    auto quoted = echo_quoted(shell_name, exe, values);
    REQUIRE(quoted.has_value());
    REQUIRE(quoted->size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        CAPTURE(values[i]);
        CAPTURE(make_shell(shell_name)->quote(values[i]));
        CHECK((*quoted)[i] == values[i]);
    }

    std::vector<std::string> names;
    for (size_t i = 0; i < values.size(); ++i) names.push_back("CE_T" + std::to_string(i));
    auto read = set_and_read(shell_name, exe, names, values);
    REQUIRE(read.has_value());
    REQUIRE(read->size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        CAPTURE(values[i]);
        CAPTURE(make_shell(shell_name)->set_var(names[i], values[i]));
        CHECK((*read)[i] == std::optional<std::string>(values[i]));
    }

    // fish treats every variable whose name ends in PATH (CUDA_PATH too) as a
    // list split on ':'; the values must still come back whole.
    for (auto& n : names) n += "_PATH";
    read = set_and_read(shell_name, exe, names, values);
    REQUIRE(read.has_value());
    REQUIRE(read->size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) {
        CAPTURE(values[i]);
        CHECK((*read)[i] == std::optional<std::string>(values[i]));
    }
    CHECK_FALSE(testsupport::fs::exists(marker));
}
#endif

}  // namespace

TEST_CASE("make_shell") {
    for (const char* n : {"bash", "zsh", "fish", "pwsh", "cmd"}) CHECK(make_shell(n)->name() == n);
    CHECK(make_shell("powershell")->name() == "pwsh");
    CHECK_THROWS_AS(make_shell("csh"), UsageError);
    CHECK_THROWS_AS(make_shell(""), UsageError);
    CHECK_THROWS_AS(make_shell("Bash"), UsageError);
}

#ifndef _WIN32
TEST_CASE("quote and set_var in the real shells") {
    SUBCASE("bash") { check_shell("bash", "bash"); }
    SUBCASE("zsh") {
        if (!have("zsh")) MESSAGE("zsh not installed; skipped");
        else check_shell("zsh", "zsh");
    }
    SUBCASE("fish") {
        if (!have("fish")) MESSAGE("fish not installed; skipped");
        else check_shell("fish", "fish");
    }
    SUBCASE("pwsh") {
        auto exe = pwsh_path();
        if (exe.empty()) MESSAGE("pwsh not found (~/.dotnet/tools/pwsh); skipped");
        else check_shell("pwsh", exe);
    }
}

TEST_CASE("set_var of list variables in the real shells") {
    // fish keeps PATH as a list; the rendering must still give the same string back.
    const std::vector<std::string> lists = {
        "/usr/bin:/bin", "", ":", "::", "/a::/b", ":/lead", "/trail:", "/with space/bin:/it's:/$x:/`id`",
        "/中文/bin", "/a\\b:/c",
    };
    for (const std::string sh : {"bash", "zsh", "fish"}) {
        if (!have(sh)) {
            MESSAGE(sh << " not installed; skipped");
            continue;
        }
        for (const std::string var : {"PATH", "LD_LIBRARY_PATH"}) {
            std::vector<std::string> names(lists.size(), var);
            for (size_t i = 0; i < lists.size(); ++i) {
                CAPTURE(sh);
                CAPTURE(var);
                CAPTURE(lists[i]);
                auto read = set_and_read(sh, sh == "fish" ? "/usr/bin/fish" : "/usr/bin/" + sh, {var}, {lists[i]});
                REQUIRE(read.has_value());
                REQUIRE(read->size() == 1);
                std::string want = lists[i];
                // fish exports an empty element of PATH as "." (the same folder
                // to the OS); nothing fish runs can set it otherwise.
                if (sh == "fish" && var == "PATH" && !want.empty()) {
                    auto parts = split_path_list(want, PathStyle::posix);
                    for (auto& p : parts)
                        if (p.empty()) p = ".";
                    want = join_path_list(parts, PathStyle::posix);
                }
                CHECK((*read)[0] == std::optional<std::string>(want));
            }
        }
    }
}

TEST_CASE("unset_var in the real shells") {
    for (const std::string sh : {"bash", "zsh", "fish"}) {
        if (!have(sh)) continue;
        CAPTURE(sh);
        auto s = make_shell(sh);
        TempDir dir("unset");
        auto code = dir / "code";
        testsupport::write(code, s->set_var("CE_U", "x") + "\n" + s->unset_var("CE_U") + "\n");
        auto out = run(sh + " -c " + posix_single_quote((sh == "fish" ? "source " : ". ") + posix_single_quote(code.string()) +
                                                        "; /usr/bin/printenv CE_U; echo rc=$" +
                                                        (sh == "fish" ? "status" : "?")));
        REQUIRE(out.has_value());
        CHECK(*out == "rc=1\n");
    }
}
#endif

#ifndef _WIN32
TEST_CASE("use then deactivate rendered for the real shells") {
    // The original environment, set by the shell's own set_var/unset_var.
    const std::vector<std::string> names = {"PATH", "LD_LIBRARY_PATH", "CUDA_PATH", "CUDA_HOME", "CUDNN_PATH",
                                            "CUDNN_HOME", "CUDAENV_VERSION", state_var};
    std::map<std::string, std::string> original = {
        {"PATH", "/usr/bin:/bin:/usr/local/cuda-11.8/bin:/opt/it's \"q\" $x `y` %z% \xE2\x80\x98\xE4\xB8\xAD"},
        {"CUDA_PATH", ""},
        {"CUDA_HOME", "a'b\\c"},
    };
    PairEnv pair;
    pair.spec = "12.6";
    pair.cuda_root = "/store/toolkits/12.6 it's $HOME `id` %P%";
    pair.cuda_version = *Version::parse("12.6.3");
    pair.path_dirs = {pair.cuda_root + "/bin"};
    pair.lib_dirs = {pair.cuda_root + "/lib64", "/store/cudnn/9.1.0_cuda12/lib"};
    pair.cudnn_root = "/store/cudnn/9.1.0_cuda12";
    auto owned = [](const std::string& e) { return is_cuda_entry(e, {"/store"}, PathStyle::posix); };

    for (const std::string sh : {"bash", "zsh", "fish", "pwsh"}) {
        CAPTURE(sh);
        std::string exe = sh == "pwsh" ? pwsh_path() : (have(sh) ? sh : "");
        if (exe.empty()) {
            MESSAGE(sh << " not found; skipped");
            continue;
        }
        auto shell = make_shell(sh);
        std::map<std::string, std::string> env = original;
        auto reader = [&](const std::string& n) -> std::optional<std::string> {
            auto it = env.find(n);
            return it == env.end() ? std::nullopt : std::optional<std::string>(it->second);
        };
        auto apply = [&](const EnvDiff& diff) {
            for (const auto& c : diff.changes()) {
                if (c.value) env[c.name] = *c.value;
                else env.erase(c.name);
            }
        };
        auto expected = [&] {
            std::vector<std::optional<std::string>> out;
            for (const auto& n : names) out.push_back(reader(n));
            return out;
        };
        std::string code;
        for (const auto& n : names) {
            auto it = original.find(n);
            code += (it == original.end() ? shell->unset_var(n) : shell->set_var(n, it->second)) + "\n";
        }
        auto use = plan_use(pair, "12.6", reader, owned, PathStyle::posix);
        code += render(*shell, use);
        apply(use);
        auto after_use = expected();
        auto got = run_and_read(sh, exe, code, names);
        REQUIRE(got.has_value());
        REQUIRE(got->size() == names.size());
        for (size_t i = 0; i < names.size(); ++i) {
            CAPTURE(names[i]);
            CHECK((*got)[i] == after_use[i]);
        }

        auto off = plan_deactivate(reader, PathStyle::posix);
        code += render(*shell, off);
        apply(off);
        got = run_and_read(sh, exe, code, names);
        REQUIRE(got.has_value());
        REQUIRE(got->size() == names.size());
        auto after_off = expected();
        for (size_t i = 0; i < names.size(); ++i) {
            CAPTURE(names[i]);
            CHECK((*got)[i] == after_off[i]);
        }
        CHECK(env == original);
    }
}
#endif

namespace {

// cmd.exe's reading of one batch line: %% -> % (a lone % would expand), then
// " toggles quoting, ^ escapes the next character outside quotes, and an
// unescaped & | < > ( ) outside quotes would end the command. nullopt when
// the line would do anything but run a single command.
std::optional<std::string> cmd_read_line(const std::string& line) {
    std::string s;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\n' || line[i] == '\r') return std::nullopt;
        if (line[i] == '%') {
            if (i + 1 < line.size() && line[i + 1] == '%') {
                s += '%';
                ++i;
                continue;
            }
            return std::nullopt;
        }
        s += line[i];
    }
    std::string out;
    bool quoted = false;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '"') {
            quoted = !quoted;
            out += c;
        } else if (!quoted && c == '^') {
            if (i + 1 >= s.size()) return std::nullopt;  // a line continuation
            out += s[++i];
        } else if (!quoted && std::string_view("&|<>()").find(c) != std::string_view::npos) {
            return std::nullopt;
        } else {
            out += c;
        }
    }
    return out;
}

// `set "NAME=value"` as cmd runs it: the text between the first and the last quote.
std::optional<std::pair<std::string, std::string>> cmd_run_set(const std::string& line) {
    auto l = cmd_read_line(line);
    if (!l || !l->starts_with("set \"")) return std::nullopt;
    auto body = l->substr(5);
    auto last = body.rfind('"');
    if (last == std::string::npos) return std::nullopt;
    body = body.substr(0, last);
    auto eq = body.find('=');
    if (eq == std::string::npos) return std::nullopt;
    return std::make_pair(body.substr(0, eq), body.substr(eq + 1));
}

size_t count(const std::string& s, char c) {
    size_t n = 0;
    for (char x : s) n += x == c;
    return n;
}

}  // namespace

TEST_CASE("cmd quoting by rule") {
    auto cmd = make_shell("cmd");
    SUBCASE("quote: %% doubled, balanced, read back by cmd as the quoted value") {
        for (const auto& v : hostile_values()) {
            if (v.find_first_of("\"\r\n") != std::string::npos) continue;  // below
            CAPTURE(v);
            auto q = cmd->quote(v);
            CHECK(q.front() == '"');
            CHECK(q.back() == '"');
            CHECK(count(q, '"') % 2 == 0);
            CHECK(count(q, '%') == 2 * count(v, '%'));
            CHECK(cmd_read_line(q) == "\"" + v + "\"");
        }
    }
    SUBCASE("set_var: cmd sets exactly the value") {
        for (const auto& v : hostile_values()) {
            if (v.find_first_of("\r\n") != std::string::npos) continue;  // below
            CAPTURE(v);
            auto line = cmd->set_var("CUDA_PATH", v);
            CAPTURE(line);
            auto got = cmd_run_set(line);
            REQUIRE(got.has_value());
            CHECK(got->first == "CUDA_PATH");
            CHECK(got->second == v);
        }
    }
    SUBCASE("set_var: ^ before & | < > ( ) outside quotes") {
        auto line = cmd->set_var("X", "a\"&|<>()^b");
        CHECK(line == "set \"X=a\"^&^|^<^>^(^)^^b\"");
        CHECK(cmd_run_set(line)->second == "a\"&|<>()^b");
        CHECK(cmd->set_var("X", "a&b") == "set \"X=a&b\"");
        CHECK(cmd->set_var("X", "50%") == "set \"X=50%%\"");
    }
    SUBCASE("a line break cannot be written safely: refused") {
        CHECK_THROWS_AS(cmd->set_var("X", "a\r\ndel /q C:\\"), Error);
        CHECK_THROWS_AS(cmd->set_var("X", "a\ncalc"), Error);
        CHECK_THROWS_AS(cmd->quote("a\nb"), Error);
    }
    SUBCASE("unset_var") {
        auto got = cmd_run_set(cmd->unset_var("CUDNN_PATH"));
        REQUIRE(got.has_value());
        CHECK(got->first == "CUDNN_PATH");
        CHECK(got->second.empty());
    }
    SUBCASE("render: one line per change, nothing for an edit that changes nothing") {
        EnvDiff diff;
        diff.edits = {{"A", EnvOp::set, "1"}, {"B", EnvOp::unset}, {"C", EnvOp::set, "same", {}, {}, false}};
        auto out = render(*cmd, diff);
        CHECK(out == "set \"A=1\"\nset \"B=\"\n");
    }
}

TEST_CASE("posix_single_quote") {
    CHECK(posix_single_quote("") == "''");
    CHECK(posix_single_quote("abc") == "'abc'");
    CHECK(posix_single_quote("it's") == "'it'\\''s'");
    CHECK(posix_single_quote("$(x) `y` \\ \"") == "'$(x) `y` \\ \"'");
}

TEST_CASE("pwsh quote doubles every kind of single quote") {
    auto ps = make_shell("pwsh");
    CHECK(ps->quote("it's") == "'it''s'");
    CHECK(ps->quote("\xE2\x80\x98") == "'\xE2\x80\x98\xE2\x80\x98'");
    CHECK(ps->quote("\xE2\x80\x9B") == "'\xE2\x80\x9B\xE2\x80\x9B'");
    CHECK(ps->quote("\xE2\x80\x9C") == "'\xE2\x80\x9C'");  // a double quote needs nothing
    CHECK(ps->quote("$env:X `n") == "'$env:X `n'");
    SUBCASE("line breaks are escapes, so PowerShell's line splitting cannot turn CR into LF") {
        CHECK(ps->quote("a\r\nb") == "('a' + \"`r`n\" + 'b')");
        CHECK(ps->quote("\r") == "('' + \"`r\" + '')");
        CHECK(ps->quote("x\ny\rz") == "('x' + \"`n\" + 'y' + \"`r\" + 'z')");
    }
    SUBCASE("a quote at the very end") {
        CHECK(ps->quote("x\xE2\x80\x99") == "'x\xE2\x80\x99\xE2\x80\x99'");
    }
}
