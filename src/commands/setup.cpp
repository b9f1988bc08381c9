// cudaenv setup [<shell>] [--undo]: one-step set-up. Adds the init line to
// the shell's profile once (in a marked block), puts <store>/shims on PATH
// (POSIX: in that block; Windows: the user's PATH in HKCU\Environment, never
// the machine's, never admin), and for cmd sets the user's AutoRun. What it
// did is recorded in <store>/setup.toml, so --undo puts every profile back
// byte for byte and removes a profile it created.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <sstream>
#include <toml++/toml.h>

#include "commands/context.hpp"
#include "core/profile_block.hpp"
#include "core/rehash.hpp"
#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";

// One profile file that setup changed.
struct ProfileRecord {
    std::string path;                       // UTF-8, as setup chose it (links are followed when writing)
    std::string shell;
    bool created = false;                   // the file did not exist before
    bool newline_added = false;             // setup ended the old last line
    std::vector<std::string> created_dirs;  // folders setup created for it, outermost first
};

// What setup changed outside files (Windows).
struct WindowsRecord {
    std::optional<std::string> path_entry;  // the entry put first in HKCU\Environment\Path
    bool path_value_created = false;        // there was no user Path before
    std::optional<std::string> autorun_set; // the AutoRun value setup wrote
    std::optional<std::string> autorun_before;
    bool autorun_before_expandable = false; // it was REG_EXPAND_SZ
    bool autorun_existed = false;
    bool autorun_key_created = false;       // there was no Command Processor key
};

struct SetupRecord {
    std::vector<ProfileRecord> profiles;
    WindowsRecord win;

    static SetupRecord load(const fs::path& file) {
        SetupRecord r;
        auto text = fsx::read_file(file);
        if (!text) return r;
        toml::table t;
        try {
            t = toml::parse(*text);
        } catch (const toml::parse_error& e) {
            throw Error(fsx::to_utf8(file) + ":" + std::to_string(e.source().begin.line) + ": " +
                            std::string(e.description()),
                        "`cudaenv setup` keeps what it changed there; fix or remove the file");
        }
        if (auto* arr = t["profile"].as_array())
            for (auto& node : *arr) {
                auto* p = node.as_table();
                if (!p) continue;
                ProfileRecord pr;
                pr.path = (*p)["path"].value_or(std::string());
                pr.shell = (*p)["shell"].value_or(std::string());
                pr.created = (*p)["created"].value_or(false);
                pr.newline_added = (*p)["newline_added"].value_or(false);
                if (auto* dirs = (*p)["created_dirs"].as_array())
                    for (auto& d : *dirs)
                        if (auto s = d.value<std::string>()) pr.created_dirs.push_back(*s);
                if (!pr.path.empty()) r.profiles.push_back(pr);
            }
        if (auto* w = t["windows"].as_table()) {
            if (auto s = (*w)["path_entry"].value<std::string>()) r.win.path_entry = *s;
            r.win.path_value_created = (*w)["path_value_created"].value_or(false);
            if (auto s = (*w)["autorun_set"].value<std::string>()) r.win.autorun_set = *s;
            if (auto s = (*w)["autorun_before"].value<std::string>()) r.win.autorun_before = *s;
            r.win.autorun_before_expandable = (*w)["autorun_before_expandable"].value_or(false);
            r.win.autorun_existed = (*w)["autorun_existed"].value_or(false);
            r.win.autorun_key_created = (*w)["autorun_key_created"].value_or(false);
        }
        return r;
    }

    bool empty() const { return profiles.empty() && !win.path_entry && !win.autorun_set; }

    void save(const fs::path& file) const {
        if (empty()) {
            std::error_code ec;
            fs::remove(file, ec);
            return;
        }
        toml::array arr;
        for (const auto& p : profiles) {
            toml::array dirs;
            for (const auto& d : p.created_dirs) dirs.push_back(d);
            arr.push_back(toml::table{{"path", p.path},
                                      {"shell", p.shell},
                                      {"created", p.created},
                                      {"newline_added", p.newline_added},
                                      {"created_dirs", dirs}});
        }
        toml::table t{{"profile", arr}};
        toml::table w;
        if (win.path_entry) {
            w.insert("path_entry", *win.path_entry);
            w.insert("path_value_created", win.path_value_created);
        }
        if (win.autorun_set) {
            w.insert("autorun_set", *win.autorun_set);
            w.insert("autorun_existed", win.autorun_existed);
            w.insert("autorun_key_created", win.autorun_key_created);
            if (win.autorun_before) {
                w.insert("autorun_before", *win.autorun_before);
                w.insert("autorun_before_expandable", win.autorun_before_expandable);
            }
        }
        if (!w.empty()) t.insert("windows", w);
        std::ostringstream out;
        out << "# What `cudaenv setup` changed, so `cudaenv setup --undo` can put it back exactly.\n" << t << "\n";
        fsx::write_file_atomic(file, out.str());
    }

    ProfileRecord* find(const std::string& path) {
        for (auto& p : profiles)
            if (p.path == path) return &p;
        return nullptr;
    }
};

fs::path record_file(Store& store) { return store.root() / "setup.toml"; }

fs::path config_home() {
    if (auto x = platform::get_env("XDG_CONFIG_HOME"); x && !x->empty() && fsx::from_utf8(*x).is_absolute())
        return fsx::from_utf8(*x);
    return platform::home_dir() / ".config";
}

// The profile files a shell reads at start-up, as that shell finds them.
std::vector<fs::path> profile_paths(const std::string& shell) {
    if (shell == "bash") return {platform::home_dir() / ".bashrc"};
    if (shell == "zsh") {
        auto zdot = platform::get_env("ZDOTDIR");
        return {(zdot && !zdot->empty() ? fsx::from_utf8(*zdot) : platform::home_dir()) / ".zshrc"};
    }
    if (shell == "fish") return {config_home() / "fish" / "config.fish"};
    if (shell == "pwsh") {
        if (platform::is_windows) {
            // $PROFILE (CurrentUserCurrentHost) of PowerShell 7 and of Windows PowerShell 5.1.
            auto docs = platform::documents_dir();
            return {docs / "PowerShell" / "Microsoft.PowerShell_profile.ps1",
                    docs / "WindowsPowerShell" / "Microsoft.PowerShell_profile.ps1"};
        }
        return {config_home() / "powershell" / "Microsoft.PowerShell_profile.ps1"};
    }
    return {};  // cmd: the registry
}

// The block's lines: shims on PATH (POSIX; Windows keeps it in the user
// PATH), then the integration, guarded so a removed cudaenv does not break
// the shell's start.
std::vector<std::string> block_lines(const std::string& shell, const std::string& exe, const std::string& shims) {
    auto sh = make_shell(shell);
    auto e = sh->quote(exe), s = sh->quote(shims);
    std::vector<std::string> lines;
    if (shell == "bash" || shell == "zsh") {
        if (!platform::is_windows)
            lines.push_back("case \":${PATH}:\" in *:" + s + ":*) ;; *) export PATH=" + s + "\"${PATH:+:${PATH}}\" ;; esac");
        lines.push_back("if [ -x " + e + " ]; then eval \"$(" + e + " init " + shell + ")\"; fi");
    } else if (shell == "fish") {
        if (!platform::is_windows) lines.push_back("contains -- " + s + " $PATH; or set -gx PATH " + s + " $PATH");
        lines.push_back("if test -x " + e + "; " + e + " init fish | source; end");
    } else if (shell == "pwsh") {
        if (!platform::is_windows)
            lines.push_back("if (-not (($env:PATH -split [IO.Path]::PathSeparator) -contains " + s + ")) { $env:PATH = " +
                            s + " + [IO.Path]::PathSeparator + $env:PATH }");
        lines.push_back("if (Test-Path -LiteralPath " + e + ") { Invoke-Expression (& " + e +
                        " init pwsh | Out-String) }");
    }
    return lines;
}

// "bash" for "bash", "/bin/bash", "-bash", "pwsh.exe", "powershell.exe"; "" when unknown.
std::string shell_from_name(std::string name) {
    name = fsx::to_utf8(fsx::from_utf8(name).filename());
    if (name.starts_with("-")) name.erase(0, 1);  // a login shell
    name = str::to_lower_ascii(name);
    if (name.ends_with(".exe")) name.resize(name.size() - 4);
    for (const auto& s : shell_names())
        if (name == s) return s == "powershell" ? "pwsh" : s;
    return {};
}

std::string default_shell() {
    if (!platform::is_windows)
        if (auto sh = platform::get_env("SHELL"); sh && !shell_from_name(*sh).empty()) return shell_from_name(*sh);
    if (auto parent = platform::parent_process_name(); parent && !shell_from_name(*parent).empty())
        return shell_from_name(*parent);
    throw UsageError("cannot tell which shell to set up", "name it: cudaenv setup bash (or zsh, fish, pwsh, cmd)");
}

// Writes through links (a profile kept in a dotfiles repository stays a
// link) and keeps the file's permissions.
void write_profile(const fs::path& path, const std::string& text) {
    std::error_code ec;
    auto target = path;
    if (fs::is_symlink(fs::symlink_status(path, ec))) {
        target = fs::weakly_canonical(path, ec);
        if (ec) throw Error("cannot follow the link '" + fsx::to_utf8(path) + "': " + ec.message());
    }
    auto perms = fs::status(target, ec).permissions();
    bool existed = !ec && fsx::exists(target);
    fsx::write_file_atomic(target, text);
    if (existed) fs::permissions(target, perms, ec);
}

std::string home_relative(const fs::path& p) {
    auto s = fsx::to_utf8(p), home = fsx::to_utf8(platform::home_dir());
    if (!platform::is_windows && !home.empty() && home != "/" && s.starts_with(home + "/")) return "~" + s.substr(home.size());
    return s;
}

void add_to_profile(const fs::path& path, const std::string& shell, const std::vector<std::string>& lines,
                    SetupRecord& rec) {
    auto key = fsx::to_utf8(path);
    bool existed = fsx::exists(path);
    std::string old;
    if (existed) {
        auto text = fsx::read_file(path);
        if (!text) throw Error("cannot read '" + key + "'", "check its permissions");
        old = *text;
    }
    auto edit = add_block(old, lines);
    if (!edit.changed) {
        std::cout << home_relative(path) << ": already set up\n";
        return;
    }
    std::vector<std::string> created_dirs;
    if (!existed) {
        // Folders to create (~/.config/fish, ...), outermost first, so undo can remove them.
        std::vector<fs::path> missing;
        for (auto d = path.parent_path(); !d.empty() && !fsx::exists(d); d = d.parent_path()) {
            missing.insert(missing.begin(), d);
            if (d == d.parent_path()) break;
        }
        for (const auto& d : missing) created_dirs.push_back(fsx::to_utf8(d));
        // Windows PowerShell 5.1 reads a profile without a BOM in the ANSI code page.
        if (platform::is_windows && shell == "pwsh") edit.text = std::string(utf8_bom) + edit.text;
    }
    // Record first: if writing fails half-way, undo still knows what to remove.
    if (!rec.find(key)) rec.profiles.push_back({key, shell, !existed, edit.newline_added, created_dirs});
    write_profile(path, edit.text);
    std::cout << home_relative(path) << ": " << (has_block(old) ? "updated" : "added") << " the cudaenv block\n";
}

// False when the file holds no block.
bool remove_from_profile(const ProfileRecord& pr) {
    auto path = fsx::from_utf8(pr.path);
    auto text = fsx::read_file(path);
    if (!text) return false;
    auto after = remove_block(*text, pr.newline_added);
    if (!after) return false;
    if (pr.created && (after->empty() || *after == utf8_bom)) {
        std::error_code ec;
        fs::remove(path, ec);
        if (ec) throw Error("cannot remove '" + pr.path + "': " + ec.message());
        for (auto it = pr.created_dirs.rbegin(); it != pr.created_dirs.rend(); ++it)
            if (fs::is_empty(fsx::from_utf8(*it), ec) && !ec) fs::remove(fsx::from_utf8(*it), ec);
        std::cout << home_relative(path) << ": removed (setup had created it)\n";
    } else {
        write_profile(path, *after);
        std::cout << home_relative(path) << ": removed the cudaenv block\n";
    }
    return true;
}

// Windows: <store>\shims first on the user's PATH (HKCU\Environment).
void add_user_path(const std::string& shims, SetupRecord& rec) {
    auto cur = platform::user_env_read("Path");
    auto entries = cur ? split_path_list(cur->value, PathStyle::windows) : std::vector<std::string>{};
    for (const auto& e : entries)
        if (same_path_entry(e, shims, PathStyle::windows)) {
            std::cout << "user PATH: already has " << shims << "\n";
            return;
        }
    if (!rec.win.path_entry) {
        rec.win.path_entry = shims;
        rec.win.path_value_created = !cur;
    }
    entries.insert(entries.begin(), shims);
    platform::user_env_write("Path", {join_path_list(entries, PathStyle::windows), cur ? cur->expandable : true});
    platform::broadcast_environment_change();
    std::cout << "user PATH (HKCU\\Environment): added " << shims << " first; new terminals and IDEs see it\n";
}

void remove_user_path(SetupRecord& rec) {
    if (!rec.win.path_entry) return;
    if (auto cur = platform::user_env_read("Path")) {
        auto entries = split_path_list(cur->value, PathStyle::windows);
        auto it = std::find_if(entries.begin(), entries.end(), [&](const std::string& e) {
            return same_path_entry(e, *rec.win.path_entry, PathStyle::windows);
        });
        if (it != entries.end()) {
            entries.erase(it);
            if (entries.empty() && rec.win.path_value_created) platform::user_env_remove("Path");
            else platform::user_env_write("Path", {join_path_list(entries, PathStyle::windows), cur->expandable});
            platform::broadcast_environment_change();
            std::cout << "user PATH: removed " << *rec.win.path_entry << "\n";
        }
    }
    rec.win.path_entry.reset();
}

void add_autorun(const std::string& line, SetupRecord& rec) {
    auto before = platform::cmd_autorun_read();
    if (before && before->value.find(line) != std::string::npos) {
        std::cout << "cmd AutoRun: already set up\n";
        return;
    }
    // The user's value keeps its type (REG_EXPAND_SZ or REG_SZ).
    platform::UserEnvValue value{before && !str::trim(before->value).empty() ? before->value + " & " + line : line,
                                 before && before->expandable};
    if (!rec.win.autorun_set) {
        rec.win.autorun_existed = before.has_value();
        if (before) {
            rec.win.autorun_before = before->value;
            rec.win.autorun_before_expandable = before->expandable;
        }
        rec.win.autorun_key_created = !platform::cmd_processor_key_exists();
    }
    rec.win.autorun_set = value.value;
    platform::cmd_autorun_write(value);
    std::cout << "cmd AutoRun (HKCU\\Software\\Microsoft\\Command Processor): added the cudaenv line\n";
}

void remove_autorun(const std::string& line, SetupRecord& rec) {
    if (!rec.win.autorun_set) return;
    auto cur = platform::cmd_autorun_read();
    if (cur && cur->value == *rec.win.autorun_set) {
        std::optional<platform::UserEnvValue> before;
        if (rec.win.autorun_existed)
            before = platform::UserEnvValue{rec.win.autorun_before.value_or(""), rec.win.autorun_before_expandable};
        platform::cmd_autorun_write(before);
    } else if (cur) {
        // Changed since: take out only our part.
        auto v = str::replace_all(cur->value, " & " + line, "");
        v = str::replace_all(v, line, "");
        platform::cmd_autorun_write(str::trim(v).empty() && !rec.win.autorun_existed
                                        ? std::nullopt
                                        : std::optional<platform::UserEnvValue>({v, cur->expandable}));
    }
    if (rec.win.autorun_key_created) platform::cmd_processor_key_remove_if_empty();
    std::cout << "cmd AutoRun: removed the cudaenv line\n";
    rec.win.autorun_set.reset();
    rec.win.autorun_before.reset();
}

void run_setup(Context& ctx, std::string shell, bool undo) {
    bool all = shell.empty();
    if (!all) shell = make_shell(shell)->name() == "pwsh" ? "pwsh" : shell;  // validates; powershell = pwsh
    if (shell == "cmd" && !platform::is_windows)
        throw UsageError("cmd exists only on Windows", "name the shell you use: cudaenv setup bash (or zsh, fish, pwsh)");
    auto& store = ctx.store();
    auto exe = fsx::to_utf8(platform::executable_path());
    auto shims = fsx::to_utf8(store.shims_dir());
    auto rec = SetupRecord::load(record_file(store));
    auto cmd_line = [&] {
        auto line = make_shell("cmd")->init_script({exe, fsx::to_utf8(store.root())});
        return std::string(str::trim(line));
    };

    if (undo) {
        std::vector<ProfileRecord> keep;
        for (const auto& pr : rec.profiles)
            if (all || pr.shell == shell) remove_from_profile(pr);
            else keep.push_back(pr);
        // A block without a record (the store was reset): remove it, nothing else is known.
        if (!all)
            for (const auto& p : profile_paths(shell))
                if (!rec.find(fsx::to_utf8(p))) remove_from_profile({fsx::to_utf8(p), shell, false, false, {}});
        rec.profiles = keep;
        if (platform::is_windows) {
            if (all || shell == "cmd") remove_autorun(cmd_line(), rec);
            if (rec.profiles.empty() && !rec.win.autorun_set) remove_user_path(rec);
        }
        rec.save(record_file(store));
        std::cout << "cudaenv setup undone" << (all ? "" : " for " + shell) << "\n";
        return;
    }

    if (all) shell = default_shell();
    ensure_writable_dir(store.shims_dir());
    rehash_or_warn(store);
    try {
        if (shell == "cmd") {
            ctx.refresh_session_shims();
            add_autorun(cmd_line(), rec);
        } else {
            for (const auto& p : profile_paths(shell)) add_to_profile(p, shell, block_lines(shell, exe, shims), rec);
        }
        if (platform::is_windows) add_user_path(shims, rec);
    } catch (...) {
        rec.save(record_file(store));
        throw;
    }
    rec.save(record_file(store));
    std::cout << "Open a new " << shell << " to use cudaenv; `cudaenv setup " << shell << " --undo` takes it back.\n";
}

}  // namespace

void register_setup(CLI::App& app, Context& ctx) {
    auto* cmd = app.add_subcommand(
        "setup", "Add cudaenv to your shell's profile and the tool shims to PATH (--undo takes it all back)");
    auto shell = std::make_shared<std::string>();
    auto undo = std::make_shared<bool>(false);
    cmd->add_option("shell", *shell, "bash, zsh, fish, pwsh (powershell) or cmd; default: your shell");
    cmd->add_flag("--undo", *undo, "Remove what setup added (all shells when none is named)");
    cmd->footer("bash ~/.bashrc, zsh ${ZDOTDIR:-~}/.zshrc, fish ~/.config/fish/config.fish, pwsh $PROFILE;\n"
                "cmd: the user's AutoRun. Windows: the shims folder goes on the user's PATH (HKCU), never the machine's.");
    cmd->callback([&ctx, shell, undo] { run_setup(ctx, *shell, *undo); });
}

}  // namespace cudaenv
