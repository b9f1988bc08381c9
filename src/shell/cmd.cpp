// cmd.exe: `set "NAME=value"` lines in a batch file that the cudaenv.cmd shim
// CALLs. In a batch file % must be doubled everywhere; cmd toggles quoting at
// every ", and outside quotes the characters ^ & | < > ( ) need a caret.
// Delayed expansion (!) is off by default in cmd and the shim does not turn it on.
#include "shell/shell.hpp"
#include "shell/template.hpp"

#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// Escapes text that follows an opening " on a batch line.
std::string batch_escape_in_quotes(std::string_view v) {
    // A line break ends the batch line: the rest would run as a command, and
    // cmd has no way to quote one. Refuse rather than write it.
    if (v.find_first_of("\r\n") != std::string_view::npos)
        throw Error("cannot pass a value with a line break to cmd.exe",
                    "remove the line break from the variable or folder name");
    std::string out;
    bool quoted = true;
    for (char c : v) {
        if (c == '%') {
            out += "%%";
            continue;
        }
        if (c == '"') quoted = !quoted;
        else if (!quoted && std::string_view("^&|<>()").find(c) != std::string_view::npos) out += '^';
        out += c;
    }
    return out;
}

// A quoted argument for a command line that cmd reads outside any batch file,
// as it reads AutoRun: there %% stays %% and an undefined %name% stays as it
// is, so a % is written outside the quotes as ^% ("C:\a"^%"b"): phase one then
// sees a variable name holding ^ (never defined) and the caret goes in phase two.
std::string cmdline_quote(std::string_view v) {
    std::string out = "\"";
    for (char c : v) {
        if (c == '%') out += "\"^%\"";
        else out += c;
    }
    return out + "\"";
}

class Cmd : public Shell {
public:
    std::string_view name() const override { return "cmd"; }
    std::string quote(std::string_view v) const override { return "\"" + batch_escape_in_quotes(v) + "\""; }
    std::string set_var(std::string_view n, std::string_view v) const override {
        // An unbalanced " inside would flip the quoting of the closing one; keep it balanced.
        std::string body = std::string(n) + "=" + std::string(v);
        return "set " + quote(body);
    }
    std::string unset_var(std::string_view n) const override { return "set \"" + std::string(n) + "=\""; }

    std::string init_script(const InitOptions& o) const override {
        // One line for HKCU\Software\Microsoft\Command Processor\AutoRun
        // (shell/cmd/autorun.cmd). The CUDAENV_CMD_INIT guard stops nested
        // cmd.exe processes from running it again. The line is read as a
        // command line, not a batch file (see cmdline_quote), and doskey reads $
        // as its own escape ($* = the arguments), so $ is $$.
        std::string shim = str::replace_all(o.shims + "\\" + std::string(cmd_session_shim_file), "$", "$$");
        TemplateArgs args(*this);
        args.quoted("SHIM", cmdline_quote(shim));
        auto line = fill_template("cmd/autorun.cmd", args);
        if (!line.empty() && line.back() == '\n') line.pop_back();
        return line + "\n";
    }

    std::string completion_script() const override {
        return fill_template("cmd/completion.cmd", TemplateArgs(*this));
    }
};

}  // namespace

std::unique_ptr<Shell> make_cmd() { return std::make_unique<Cmd>(); }

std::string cmd_session_shim(const InitOptions& o) {
    Cmd cmd;
    // Lines are CRLF: cmd mis-parses labels in LF-only batch files.
    return str::replace_all(fill_template("cmd/cudaenv.cmd", integration_args(cmd, o, " ")), "\n", "\r\n");
}

}  // namespace cudaenv
