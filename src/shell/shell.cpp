#include "shell/shell.hpp"

#include "core/resolve.hpp"
#include "shell/commands.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

const std::vector<std::string>& shell_names() {
    static const std::vector<std::string> names = {"bash", "zsh", "fish", "pwsh", "powershell", "cmd"};
    return names;
}

std::unique_ptr<Shell> make_shell(std::string_view name) {
    if (name == "bash") return make_bash();
    if (name == "zsh") return make_zsh();
    if (name == "fish") return make_fish();
    if (name == "pwsh" || name == "powershell") return make_pwsh();
    if (name == "cmd") return make_cmd();
    std::string shown(name.substr(0, 40));
    for (auto& c : shown)
        if (static_cast<unsigned char>(c) < 0x20) c = '?';
    throw UsageError("unknown shell '" + shown + "'", "choose one of: " + str::join(shell_names(), ", "));
}

std::string render(const Shell& shell, const EnvDiff& diff) {
    std::string out;
    for (const auto& e : diff.edits) {
        if (!e.changed) continue;
        out += e.value ? shell.set_var(e.name, *e.value) : shell.unset_var(e.name);
        out += '\n';
    }
    return out;
}

std::string posix_single_quote(std::string_view value) {
    // Appended run by run between quotes: PATH-sized values are on every `use`.
    std::string out;
    out.reserve(value.size() + 2);
    out += '\'';
    for (size_t from = 0;;) {
        auto q = value.find('\'', from);
        out.append(value.substr(from, q - from));
        if (q == std::string_view::npos) break;
        out += "'\\''";
        from = q + 1;
    }
    out += '\'';
    return out;
}

namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (auto& c : out)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return out;
}

// A list placeholder, or one value of the names joined by spaces when `sep` is empty.
void add_names(TemplateArgs& args, const std::string& name, const std::vector<std::string>& names,
               std::string_view sep) {
    if (sep.empty()) args.value(name, str::join(names, " "));
    else args.list(name, names, sep);
}

}  // namespace

TemplateArgs integration_args(const Shell& shell, const InitOptions& o, std::string_view list_sep) {
    TemplateArgs args(shell);
    args.value("CUDAENV_EXE", o.exe)
        .value("SHELL", shell.name())
        // One byte more than the binary reads, so a file growing past the cap changes the key.
        .value("READ_BYTES", std::to_string(max_version_file_bytes + 1))
        .list("EVAL_COMMANDS", commands_where([](const CommandInfo& c) { return c.evaluated; }), list_sep)
        .list("HOOK_COMMANDS", commands_where([](const CommandInfo& c) { return c.reruns_hook; }), list_sep)
        .flag("AUTO_SWITCH", o.auto_switch)
        .flag(upper(shell.name()));
    return args;
}

TemplateArgs completion_args(const Shell& shell, const std::vector<std::string>& commands, std::string_view list_sep,
                             std::string_view shells_sep) {
    TemplateArgs args(shell);
    args.value("COMMANDS", str::join(commands, " "));
    auto with = [](CommandArg a) {
        std::vector<std::string> out;
        for (const auto& c : command_table())
            if (c.arg == a) out.emplace_back(c.name);
        return out;
    };
    add_names(args, "SPEC_COMMANDS", with(CommandArg::spec), list_sep);
    add_names(args, "SHELL_COMMANDS", with(CommandArg::shell), list_sep);
    add_names(args, "FOLDER_COMMANDS", with(CommandArg::folder), list_sep);
    add_names(args, "SHELLS", shell_names(), shells_sep);
    return args;
}

std::string write_session_shims(const InitOptions& opts) {
    auto dir = fsx::from_utf8(opts.store) / "shims";
    // The .ps1 carries a UTF-8 BOM: Windows PowerShell 5.1 reads a script
    // without one in the ANSI code page and would garble non-ASCII paths.
    fsx::write_file_atomic(dir / "cudaenv.ps1", "\xEF\xBB\xBF" + pwsh_session_shim(opts));
    fsx::write_file_atomic(dir / "cudaenv.cmd", cmd_session_shim(opts));
    return fsx::to_utf8(dir);
}

}  // namespace cudaenv
