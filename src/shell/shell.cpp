#include "shell/shell.hpp"
#include "shell/template.hpp"

#include "core/resolve.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

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

// The names of the commands for which `flag` is set, in table order.
std::vector<std::string> names_where(std::span<const CommandInfo> commands, bool CommandInfo::*flag) {
    std::vector<std::string> out;
    for (const auto& c : commands)
        if (c.*flag) out.emplace_back(c.name);
    return out;
}

}  // namespace

TemplateArgs integration_args(const Shell& shell, const InitOptions& o, std::string_view list_sep) {
    TemplateArgs args(shell);
    args.value("CUDAENV_EXE", o.exe)
        .value("SHELL", shell.name())
        // One byte more than the binary reads, so a file growing past the cap changes the key.
        .value("READ_BYTES", std::to_string(max_version_file_bytes + 1))
        .value("READ_BYTES_UTF16", std::to_string(max_utf16_version_file_bytes + 1))
        .list("EVAL_COMMANDS", names_where(o.commands, &CommandInfo::evaluated), list_sep)
        .list("HOOK_COMMANDS", names_where(o.commands, &CommandInfo::reruns_hook), list_sep)
        .flag("AUTO_SWITCH", o.auto_switch)
        .flag(upper(shell.name()));
    return args;
}

std::vector<SessionShimFile> session_shim_files(const InitOptions& opts) {
    // The .ps1 carries a UTF-8 BOM: Windows PowerShell 5.1 reads a script
    // without one in the ANSI code page and would garble non-ASCII paths.
    return {{"cudaenv.ps1", std::string(str::utf8_bom) + pwsh_session_shim(opts)},
            {std::string(cmd_session_shim_file), cmd_session_shim(opts)}};
}

std::string write_session_shims(const InitOptions& opts) {
    const auto dir = fsx::from_utf8(opts.shims);
    for (const auto& f : session_shim_files(opts)) fsx::write_file_atomic(dir / f.name, f.bytes);
    return opts.shims;
}

}  // namespace cudaenv
