// PowerShell (7 and Windows PowerShell 5.1): single-quoted literals, in which
// PowerShell also treats the typographic quotes U+2018..U+201B as quotes, so
// each of them is doubled like '. No 7-only syntax (??, &&, ternaries).
#include "shell/shell.hpp"
#include "shell/template.hpp"


namespace cudaenv {

namespace {

// One single-quoted literal. PowerShell splits a native program's output into
// lines at CR, LF and CRLF alike and the integration joins them with LF, so
// a raw CR or LF in a value would not come back byte for byte: a value with
// line breaks becomes ('a' + "`r`n" + 'b'), every break written as an escape.
std::string ps_literal(std::string_view v) {
    std::string out = "'";
    for (size_t i = 0; i < v.size(); ++i) {
        // U+2018..U+201B are E2 80 98..9B in UTF-8.
        if (i + 2 < v.size() && static_cast<unsigned char>(v[i]) == 0xE2 && static_cast<unsigned char>(v[i + 1]) == 0x80 &&
            static_cast<unsigned char>(v[i + 2]) >= 0x98 && static_cast<unsigned char>(v[i + 2]) <= 0x9B) {
            out.append(v.substr(i, 3));
            out.append(v.substr(i, 3));
            i += 2;
            continue;
        }
        if (v[i] == '\'') out += '\'';
        out += v[i];
    }
    return out + "'";
}

std::string ps_quote(std::string_view v) {
    if (v.find_first_of("\r\n") == std::string_view::npos) return ps_literal(v);
    std::string out = "(";
    size_t start = 0;
    while (start <= v.size()) {
        auto brk = v.find_first_of("\r\n", start);
        auto piece = v.substr(start, brk == std::string_view::npos ? std::string_view::npos : brk - start);
        if (out.size() > 1) out += " + ";
        out += ps_literal(piece);
        if (brk == std::string_view::npos) break;
        out += " + \"";
        while (brk < v.size() && (v[brk] == '\r' || v[brk] == '\n')) out += v[brk++] == '\r' ? "`r" : "`n";
        out += '"';
        start = brk;
    }
    return out + ")";
}

class Pwsh : public Shell {
public:
    std::string_view name() const override { return "pwsh"; }
    std::string quote(std::string_view v) const override { return ps_quote(v); }
    std::string set_var(std::string_view n, std::string_view v) const override {
        // Assigning '' to $env:X removes X in PowerShell; SetEnvironmentVariable keeps
        // the difference between empty and unset where the platform has one.
        if (v.empty()) return "[System.Environment]::SetEnvironmentVariable(" + quote(n) + ", '')";
        return "$env:" + std::string(n) + " = " + quote(v);
    }
    std::string unset_var(std::string_view n) const override {
        return "Remove-Item -LiteralPath " + quote("Env:" + std::string(n)) + " -ErrorAction SilentlyContinue";
    }

    // shell/pwsh/init.ps1 (with shell/pwsh/run.ps1).
    std::string init_script(const InitOptions& o) const override {
        return fill_template("pwsh/init.ps1", integration_args(*this, o, ", ").flag("INIT"));
    }

    std::string completion_script() const override {
        return fill_template("pwsh/completion.ps1", TemplateArgs(*this));
    }
};

}  // namespace

std::unique_ptr<Shell> make_pwsh() { return std::make_unique<Pwsh>(); }

std::string pwsh_session_shim(const InitOptions& o) {
    Pwsh pwsh;
    return fill_template("pwsh/cudaenv.ps1", integration_args(pwsh, o, ", ").flag("SESSION_SHIM"));
}

}  // namespace cudaenv
