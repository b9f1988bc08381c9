// cmd.exe: `set "NAME=value"` lines in a batch file that the cudaenv.cmd shim
// CALLs. In a batch file % must be doubled everywhere; cmd toggles quoting at
// every ", and outside quotes the characters ^ & | < > ( ) need a caret.
// Delayed expansion (!) is off by default in cmd and the shim does not turn it on.
#include "shell/shell.hpp"

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
        // One line for HKCU\Software\Microsoft\Command Processor\AutoRun. The
        // CUDAENV_CMD_INIT guard stops nested cmd.exe processes from running it again.
        // The line is read as a command line, not a batch file (see cmdline_quote),
        // and doskey reads $ as its own escape ($* = the arguments), so $ is $$.
        std::string shim = str::replace_all(o.store + "\\shims\\cudaenv.cmd", "$", "$$");
        return "@if not defined CUDAENV_CMD_INIT (set \"CUDAENV_CMD_INIT=1\" & doskey cudaenv=" + cmdline_quote(shim) +
               " $*)\n";
    }

    std::string completion_script(const std::vector<std::string>&) const override {
        return "@rem cmd.exe has no programmable completion; cudaenv's commands are listed by `cudaenv --help`.\n";
    }
};

}  // namespace

std::unique_ptr<Shell> make_cmd() { return std::make_unique<Cmd>(); }

std::string cmd_session_shim(const InitOptions& o) {
    auto exe = "\"" + batch_escape_in_quotes(o.exe) + "\"";
    // Lines are CRLF: cmd mis-parses labels in LF-only batch files.
    std::string s =
        "@echo off\n"
        "rem cudaenv session shim for cmd.exe (generated; do not edit).\n"
        "rem With this folder first on PATH, `cudaenv use 12.4` changes the calling session.\n"
        "rem Read the rest as UTF-8 so non-ASCII paths survive; the code page is restored below.\n"
        "for /f \"tokens=2 delims=:.\" %%c in ('chcp') do set \"__CUDAENV_CP=%%c\"\n"
        ">nul chcp 65001\n"
        "if /i \"%~1\"==\"use\" goto cudaenv_apply\n"
        "if /i \"%~1\"==\"shell\" goto cudaenv_apply\n"
        "if /i \"%~1\"==\"deactivate\" goto cudaenv_apply\n"
        + exe + " %*\n"
        "set \"__CUDAENV_RC=%ERRORLEVEL%\"\n"
        "goto cudaenv_done\n"
        ":cudaenv_apply\n"
        "set \"__CUDAENV_NAME=cudaenv-%RANDOM%-%RANDOM%.cmd\"\n"
        "set \"__CUDAENV_TMP=%TEMP%\\%__CUDAENV_NAME%\"\n"
        "set \"CUDAENV_SHELL=cmd\"\n"
        + exe + " %* > \"%__CUDAENV_TMP%\"\n"
        "set \"__CUDAENV_RC=%ERRORLEVEL%\"\n"
        "set \"CUDAENV_SHELL=\"\n"
        // CALL expands % once more, and %TEMP% may hold a % (user names can):
        // call the file by its name alone (digits), from inside %TEMP%.
        "if not \"%__CUDAENV_RC%\"==\"0\" goto cudaenv_clean\n"
        "pushd \"%TEMP%\"\n"
        "call \"%__CUDAENV_NAME%\"\n"
        "popd\n"
        ":cudaenv_clean\n"
        "del \"%__CUDAENV_TMP%\" >nul 2>&1\n"
        "set \"__CUDAENV_TMP=\"\n"
        "set \"__CUDAENV_NAME=\"\n"
        ":cudaenv_done\n"
        "for /f %%c in (\"%__CUDAENV_CP%\") do >nul chcp %%c\n"
        "set \"__CUDAENV_CP=\"\n"
        // The whole line is expanded before it runs: exit gets the saved status.
        "set \"__CUDAENV_RC=\" & exit /b %__CUDAENV_RC%\n";
    return str::replace_all(s, "\n", "\r\n");
}

}  // namespace cudaenv
