// One intent, every renderer (issue 27.2): the shells, `env --json` and each
// export format draw the same EnvDiff, read back here with a small parser of
// each format. And no renderer ever writes an empty PATH or LD_LIBRARY_PATH
// entry, whatever the caller's variable held (issue 29.2).
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "core/activation.hpp"
#include "export/formats.hpp"
#include "export_support.hpp"
#include "shell/shell.hpp"
#include "util/strings.hpp"

using namespace cudaenv;
using namespace cudaenv::exporting;

namespace {

using Values = std::map<std::string, std::string>;
using Lists = std::map<std::string, std::vector<std::string>>;

// What a renderer drew: variables set (lists in full), unset, and prepended to.
struct Drawn {
    Values set;
    std::set<std::string> unset;
    Lists prepend;
};

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// The quoted strings of a line (Lua or Tcl "..." without escapes in this test), in order.
std::vector<std::string> quoted(const std::string& line) {
    std::vector<std::string> out;
    static const std::regex re("\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(line.begin(), line.end(), re); it != std::sregex_iterator(); ++it)
        out.push_back((*it)[1]);
    return out;
}

Drawn read_lmod(const std::string& text) {
    Drawn d;
    for (const auto& line : lines_of(text)) {
        auto q = quoted(line);
        if (line.starts_with("prepend_path(")) d.prepend[q[0]].insert(d.prepend[q[0]].begin(), q[1]);
        else if (line.starts_with("pushenv(") && line.ends_with(", false)")) d.unset.insert(q[0]);
        else if (line.starts_with("pushenv(")) d.set[q[0]] = q[1];
    }
    return d;
}

Drawn read_tcl(const std::string& text) {
    Drawn d;
    for (const auto& line : lines_of(text)) {
        auto q = quoted(line);
        if (line.starts_with("prepend-path ")) d.prepend[q[0]].insert(d.prepend[q[0]].begin(), q[1]);
        else if (line.starts_with("pushenv ")) d.set[q[0]] = q[1];
        else if (line.starts_with("    unsetenv \"") && line.ends_with("\"")) d.unset.insert(q[0]);
    }
    return d;
}

Drawn read_preset(const std::string& text) {
    Drawn d;
    auto j = nlohmann::json::parse(text);
    for (const auto& [k, v] : j["environment"].items()) {
        if (v.is_null()) d.unset.insert(k);
        else d.set[k] = v.get<std::string>();
    }
    return d;
}

Drawn read_dotenv(const std::string& text) {
    Drawn d;
    for (const auto& line : lines_of(text))
        if (!line.starts_with("#") && line.find('=') != std::string::npos)
            d.set[line.substr(0, line.find('='))] = line.substr(line.find('=') + 1);
    return d;
}

Drawn read_github_env(const std::string& text) {
    Drawn d;
    auto lines = lines_of(text);
    for (size_t i = 0; i + 2 < lines.size(); i += 3) {
        auto at = lines[i].find("<<");
        REQUIRE(at != std::string::npos);
        CHECK(lines[i + 2] == lines[i].substr(at + 2));
        d.set[lines[i].substr(0, at)] = lines[i + 1];
    }
    return d;
}

// bash: export NAME='value' / unset NAME (values without quotes in this test).
Drawn read_bash(const std::string& text) {
    Drawn d;
    static const std::regex set_re("^export ([A-Za-z_0-9]+)='(.*)'$"), unset_re("^unset ([A-Za-z_0-9]+)$");
    std::smatch m;
    for (const auto& line : lines_of(text)) {
        if (std::regex_match(line, m, set_re)) d.set[m[1]] = m[2];
        else if (std::regex_match(line, m, unset_re)) d.unset.insert(m[1]);
    }
    return d;
}

Drawn read_json(const std::string& text) {
    Drawn d;
    auto j = nlohmann::json::parse(text);
    for (const auto& [k, v] : j["set"].items()) d.set[k] = v.get<std::string>();
    for (const auto& v : j["unset"]) d.unset.insert(v.get<std::string>());
    for (const auto& [k, v] : j["prepend"].items()) d.prepend[k] = v.get<std::vector<std::string>>();
    return d;
}

// The entries a shell's line for `name` gives the list (values here need no
// escapes: the quotes are stripped, fish's elements read one by one); nullopt
// when the shell draws no line for it.
std::optional<std::vector<std::string>> shell_list(const std::string& shell, const std::string& text,
                                                   const std::string& name, PathStyle style) {
    const std::map<std::string, std::string> forms = {{"bash", "^export NAME='(.*)'$"},
                                                      {"zsh", "^export NAME='(.*)'$"},
                                                      {"pwsh", "^\\$env:NAME = '(.*)'$"},
                                                      {"cmd", "^set \"NAME=(.*)\"$"},
                                                      {"fish", "^set -gx NAME(.*)$"}};
    const std::regex re(str::replace_all(forms.at(shell), "NAME", name));
    std::smatch m;
    for (const auto& line : lines_of(text)) {
        if (!std::regex_match(line, m, re)) continue;
        if (shell != "fish") return split_path_list(m[1].str(), style);
        std::vector<std::string> out;
        static const std::regex element(" '([^']*)'");
        const std::string rest = m[1];
        for (std::sregex_iterator it(rest.begin(), rest.end(), element), end; it != end; ++it) out.push_back((*it)[1]);
        return out;
    }
    return std::nullopt;
}

PairVars sample(bool with_cudnn) {
    PairVars p = testsupport::pair_vars("/t", "12.4.131", with_cudnn ? "/c" : "", "9.1.0");
    auto& e = p.diff.edits;
    e.push_back({"PATH", EnvOp::prepend, "/t/bin:/usr/bin", {"/t/bin"}, {"/usr/local/cuda/bin"}});
    e.push_back({"LD_LIBRARY_PATH", EnvOp::prepend, with_cudnn ? "/t/lib64:/c/lib" : "/t/lib64",
                 with_cudnn ? std::vector<std::string>{"/t/lib64", "/c/lib"} : std::vector<std::string>{"/t/lib64"}});
    for (const char* n : {"CUDA_PATH", "CUDA_HOME", "CUDAToolkit_ROOT"}) e.push_back({n, EnvOp::set, "/t"});
    for (const char* n : {"CUDNN_PATH", "CUDNN_HOME"})
        e.push_back(with_cudnn ? EnvEdit{n, EnvOp::set, "/c"} : EnvEdit{n, EnvOp::unset, std::nullopt});
    e.push_back({"CUDACXX", EnvOp::set, "/t/bin/nvcc"});
    e.push_back({"CUDAENV_VERSION", EnvOp::set, p.spec, {}, {}, false});  // unchanged here: still the pair's
    // Not the pair's own: the machine's host compiler, an earlier `use`'s variable, the state.
    e.push_back({"NVCC_CCBIN", EnvOp::fallback, "/usr/bin/g++-12"});
    e.push_back({"OLD_VAR", EnvOp::restore, "before"});
    e.push_back({state_var, EnvOp::state, "v2;PATH=+"});
    return p;
}

// What every format must draw: the pair's intent.
Drawn intent_of(const PairVars& p) {
    Drawn d;
    for (const auto* e : p.intent()) {
        if (e->op == EnvOp::prepend) d.prepend[e->name] = e->prepended;
        else if (e->op == EnvOp::set) d.set[e->name] = *e->value;
        else d.unset.insert(e->name);
    }
    return d;
}

// The same with each list in full, as planned (the formats that write values).
Values values_of(const PairVars& p) {
    Values v;
    for (const auto* e : p.intent())
        if (e->value) v[e->name] = *e->value;
    return v;
}

std::string render(const char* format, const PairVars& p) {
    Options o;
    return find_format(format)->render(p, o);
}

bool has_empty_entry(const std::string& list) {
    return list.empty() || list.front() == ':' || list.back() == ':' || list.find("::") != std::string::npos;
}

}  // namespace

TEST_CASE("every renderer draws the same intent") {
    for (bool with_cudnn : {true, false}) {
        CAPTURE(with_cudnn);
        const auto p = sample(with_cudnn);
        const auto want = intent_of(p);
        SUBCASE("lmod") {
            auto d = read_lmod(render("lmod", p));
            CHECK(d.set == want.set);
            CHECK(d.unset == want.unset);
            CHECK(d.prepend == want.prepend);
        }
        SUBCASE("tcl") {
            auto d = read_tcl(render("tcl", p));
            CHECK(d.set == want.set);
            CHECK(d.unset == want.unset);
            CHECK(d.prepend == want.prepend);
        }
        SUBCASE("cmake-presets: values, lists in full, unset as null") {
            auto d = read_preset(render("cmake-presets", p));
            CHECK(d.set == values_of(p));
            CHECK(d.unset == want.unset);
        }
        SUBCASE("dotenv and github-env: every value as planned") {
            CHECK(read_dotenv(render("dotenv", p)).set == values_of(p));
            CHECK(read_github_env(render("github-env", p)).set == values_of(p));
        }
        SUBCASE("shells and env --json: what changes in the environment planned in") {
            Values changed;
            std::set<std::string> unset;
            for (const auto& e : p.diff.edits) {
                if (!e.changed) continue;
                if (e.value) changed[e.name] = *e.value;
                else unset.insert(e.name);
            }
            auto sh = read_bash(render(*make_shell("bash"), p.diff));
            CHECK(sh.set == changed);
            CHECK(sh.unset == unset);
            Activation a;
            a.diff = p.diff;
            auto j = read_json(a.json());
            CHECK(j.set == changed);
            CHECK(j.unset == unset);
            CHECK(j.prepend == want.prepend);
        }
    }
}

TEST_CASE("no renderer writes an empty search-path entry (issue 29.2)") {
    PairEnv pair;
    pair.spec = "12.4";
    pair.cuda_root = "/t";
    pair.cuda_version = *Version::parse("12.4.131");
    pair.path_dirs = {"/t/bin"};
    pair.lib_dirs = {"/t/lib64"};
    auto owned = [](const std::string& e) { return e.starts_with("/t"); };
    // The caller's variables: unset, empty, only an empty entry, with empty entries, set.
    const std::vector<std::optional<std::string>> cases = {std::nullopt, "", ":", "/usr/lib:", ":/usr/lib::/lib", "/usr/lib"};
    for (const auto& value : cases) {
        CAPTURE(value.value_or("(unset)"));
        auto reader = [&](const std::string& n) -> std::optional<std::string> {
            if (n == "LD_LIBRARY_PATH" || n == "PATH") return value;
            return std::nullopt;
        };
        PairVars p;
        p.pair.toolkit.path = "/t";
        p.pair.toolkit.version = *Version::parse("12.4.131");
        p.cuda_root = "/t";
        p.cuda_version = "12.4.131";
        p.spec = "12.4.131+none";
        p.diff = plan_use(pair, "12.4", reader, owned, PathStyle::posix);
        for (const char* name : {"PATH", "LD_LIBRARY_PATH"}) {
            CAPTURE(name);
            const auto* e = p.diff.find(name);
            REQUIRE(e);
            REQUIRE(e->value);
            CHECK_FALSE(has_empty_entry(*e->value));
            CHECK(e->prepended == std::vector<std::string>{name == std::string("PATH") ? "/t/bin" : "/t/lib64"});
            const std::vector<Values> drawn = {read_preset(render("cmake-presets", p)).set,
                                               read_dotenv(render("dotenv", p)).set,
                                               read_github_env(render("github-env", p)).set,
                                               read_bash(render(*make_shell("bash"), p.diff)).set};
            for (const auto& d : drawn)
                if (d.count(name)) CHECK_FALSE(has_empty_entry(d.at(name)));
            // Named first: a range-for over a member of a temporary reads freed memory (before C++23).
            auto lmod = read_lmod(render("lmod", p));
            auto tcl = read_tcl(render("tcl", p));
            for (const auto& entry : lmod.prepend[name]) CHECK_FALSE(entry.empty());
            for (const auto& entry : tcl.prepend[name]) CHECK_FALSE(entry.empty());
            for (const char* shell : {"bash", "zsh", "fish", "pwsh"}) {
                CAPTURE(shell);
                auto list = shell_list(shell, render(*make_shell(shell), p.diff), name, PathStyle::posix);
                REQUIRE(list);
                CHECK(list->front() == e->prepended.front());
                for (const auto& entry : *list) CHECK_FALSE(entry.empty());
            }
        }
    }
}

TEST_CASE("no shell writes an empty PATH entry on Windows (issue 29.2)") {
    PairEnv pair;
    pair.spec = "12.4";
    pair.cuda_root = "C:\\t";
    pair.cuda_version = *Version::parse("12.4.131");
    pair.path_dirs = {"C:\\t\\bin"};
    auto owned = [](const std::string& e) { return e.starts_with("C:\\t"); };
    const std::vector<std::optional<std::string>> cases = {std::nullopt, "", ";", "C:\\x;", ";C:\\x;;C:\\y", "C:\\x"};
    for (const auto& value : cases) {
        CAPTURE(value.value_or("(unset)"));
        auto reader = [&](const std::string& n) -> std::optional<std::string> {
            return n == "PATH" ? value : std::nullopt;
        };
        const auto diff = plan_use(pair, "12.4", reader, owned, PathStyle::windows);
        for (const char* shell : {"cmd", "pwsh"}) {
            CAPTURE(shell);
            auto list = shell_list(shell, render(*make_shell(shell), diff), "PATH", PathStyle::windows);
            REQUIRE(list);
            CHECK(list->front() == "C:\\t\\bin");
            for (const auto& entry : *list) CHECK_FALSE(entry.empty());
        }
    }
}
