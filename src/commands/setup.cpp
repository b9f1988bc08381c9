// cudaenv setup [<shell>] [--undo] [--install [DIR]]: one-step set-up. Puts the
// init line into the shell's profile once (a marked block), the shims folder
// on PATH (POSIX: in that block; Windows: the user's PATH in HKCU, never the
// machine's, never admin), and for cmd the user's AutoRun. Windows
// `--install` first copies the programs to %LOCALAPPDATA%\Programs\cudaenv.
// What it changed is kept in <store>/setup.toml (core/setup_record), and
// --undo takes back exactly that (core/setup_actions).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "commands/context.hpp"
#include "core/exec_policy.hpp"
#include "core/rehash.hpp"
#include "core/setup_actions.hpp"
#include "platform/platform.hpp"
#include "platform/profiles.hpp"
#include "commands/command_table.hpp"
#include "shell/profile_lines.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/report.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

const std::vector<std::string> program_names = {std::string("cudaenv") + platform::exe_suffix(),
                                                std::string("cudaenv-shim") + platform::exe_suffix(),
                                                std::string("cudaenv-install") + platform::exe_suffix(),
                                                std::string("cudaenv-probe") + platform::exe_suffix()};

// The programs, and the files of the private folder beside them (the zip's
// and the build tree's lib/cudaenv: zlibwapi.dll), as paths under the folder.
std::vector<std::string> files_to_install(const fs::path& from) {
    auto files = program_names;
    const auto priv = fs::path("lib") / "cudaenv";
    std::error_code ec;
    for (fs::directory_iterator it(from / priv, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(fsx::to_utf8(priv / it->path().filename()));
    std::sort(files.begin() + static_cast<std::ptrdiff_t>(program_names.size()), files.end());
    return files;
}

std::string cmd_line(const std::string& exe, Store& store) {
    auto line = make_shell("cmd")->init_script({exe, fsx::to_utf8(store.root()), true, integration_commands()});
    return std::string(str::trim(line));
}

void undo(Context& ctx, SetupSession& s, const std::string& shell, bool all) {
    auto& store = ctx.store();
    auto exe = fsx::to_utf8(platform::executable_path());
    auto shims = fsx::to_utf8(store.shims_dir());
    std::vector<std::string> failed;
    auto attempt = [&](auto&& fn) {
        try {
            fn();
        } catch (const Error& e) {
            print_error(e.what(), e.hint());
            failed.push_back(e.what());
        }
    };
    auto records = s.record.profiles;
    std::vector<std::string> done;
    for (const auto& pr : records)
        if (all || pr.shell == shell) {
            done.push_back(pr.path);
            attempt([&] {
                remove_profile_block(s, pr, profile_block_lines(shell_info(pr.shell), exe, shims, !platform::is_windows));
            });
        }
    // No record (setup.toml lost): setup's own block, byte for byte, still goes.
    if (!all)
        for (const auto& p : profile_paths(shell_info(shell), platform::current_profile_env()))
            if (std::find(done.begin(), done.end(), fsx::to_utf8(p)) == done.end())
                attempt([&] {
                    remove_profile_block(s, ProfileRecord{fsx::to_utf8(p), shell, false, {}, std::nullopt},
                                         profile_block_lines(shell_info(shell), exe, shims, !platform::is_windows));
                });
    if (platform::is_windows) {
        if (all || shell_info(shell).autorun) {
            auto installed = s.record.install ? (fsx::from_utf8(s.record.install->dir) / program_names[0]) : fs::path();
            attempt([&] { remove_autorun(s, cmd_line(s.record.install ? fsx::to_utf8(installed) : exe, store)); });
        }
        if (s.record.profiles.empty() && !s.record.win.autorun_set) attempt([&] { remove_user_path(s); });
        if (all && s.record.install) attempt([&] {
            // Windows cannot delete a running program: when this is the
            // installed copy, move it aside into the store (same volume).
            auto self = platform::executable_path();
            std::error_code ec;
            if (fs::equivalent(self.parent_path(), fsx::from_utf8(s.record.install->dir), ec) && !ec) {
                auto aside = store.root() / "tmp" / fsx::from_utf8("cudaenv-removed" + std::string(platform::exe_suffix()));
                fs::create_directories(aside.parent_path(), ec);
                fs::remove(aside, ec);
                fs::rename(self, aside, ec);
                if (ec) throw Error("cannot move the running " + fsx::to_utf8(self) + " aside: " + ec.message(),
                                    "run `cudaenv setup --undo` with the cudaenv.exe of the zip instead");
                std::cout << "note: the running cudaenv.exe was moved to " << fsx::to_utf8(aside)
                          << "; delete it once this command has ended\n";
            }
            remove_programs(s);
        });
    }
    if (!failed.empty())
        throw Error("setup --undo left " + std::to_string(failed.size()) + " change" + (failed.size() == 1 ? "" : "s") +
                        " in place (above); everything else is undone",
                    "fix what the messages above say and run `cudaenv setup --undo` again");
    std::cout << "cudaenv setup undone" << (all ? "" : " for " + shell) << "\n";
}

void run_setup(Context& ctx, std::string shell, bool undo_, const std::optional<std::string>& install) {
    bool all = shell.empty();
    if (!all) shell = std::string(shell_info(shell).name);  // validates; powershell = pwsh
    if (!all && shell_info(shell).os == ShellOs::windows && !platform::is_windows)
        throw UsageError(shell + " exists only on Windows", "name the shell you use: cudaenv setup <shell>");
    if (install && !platform::is_windows)
        throw UsageError("--install is for Windows", "on Linux install the .deb package, or `cmake --install` a build");
    if (install && (undo_ || !all))
        throw UsageError("--install takes no shell and no --undo", "cudaenv setup --install [<folder>]");
    auto& store = ctx.store();
    auto record_file = store.root() / "setup.toml";
    auto rec = SetupRecord::load(record_file);
    auto host = make_real_setup_host();
    SetupSession s{*host, rec, std::cout, [&] { rec.save(record_file); }};

    if (undo_) return undo(ctx, s, shell, all);

    auto exe = platform::executable_path();
    std::optional<std::string> install_entry;
    if (install) {
        auto local = platform::get_env("LOCALAPPDATA");
        if (install->empty() && (!local || local->empty()))
            throw Error("LOCALAPPDATA is not set", "name the folder: cudaenv setup --install <folder>");
        auto dir = install->empty() ? fsx::from_utf8(*local) / "Programs" / "cudaenv"
                                    : fsx::absolute_normal(fsx::from_utf8(*install));
        install_programs(s, {exe.parent_path(), dir, files_to_install(exe.parent_path())});
        exe = dir / program_names[0];
        install_entry = fsx::to_utf8(dir);
    }
    auto exe_s = fsx::to_utf8(exe);
    auto shims = fsx::to_utf8(store.shims_dir());

    std::vector<std::string> chosen;
    if (install) chosen = {"pwsh", "cmd"};
    else if (!all) chosen = {shell};
    else {
        auto detected = detect_shell();
        if (detected.empty())
            throw UsageError("cannot tell which shell to set up", "name it: cudaenv setup <shell> (" + shell_choices() + ")");
        chosen = {detected};
    }
    // Every profile path first: one that cannot be told (HOME unset) stops setup before it writes anything.
    std::vector<std::pair<const ShellInfo*, std::vector<fs::path>>> targets;
    for (const auto& name : chosen)
        targets.emplace_back(&shell_info(name), profile_paths(shell_info(name), platform::current_profile_env()));
    ensure_writable_dir(store.shims_dir());
    rehash_or_warn(store);
    bool pwsh = false;
    for (const auto& [sh, profiles] : targets) {
        if (sh->session_shim) write_session_shims({exe_s, fsx::to_utf8(store.root()), true, integration_commands()});
        if (sh->autorun) add_autorun(s, cmd_line(exe_s, store));
        for (const auto& p : profiles)
            add_profile_block(s, {p, std::string(sh->name), sh->reads,
                                  profile_block_lines(*sh, exe_s, shims, !platform::is_windows),
                                  platform::is_windows && sh->bom_on_windows});
        pwsh = pwsh || sh->name == "pwsh";
    }
    if (platform::is_windows) add_user_path(s, shims, install_entry);
    if (pwsh) require_profiles_run(std::cout);
    auto named = install ? std::string("terminal") : chosen.front();
    std::cout << "Open a new " << named << " to use cudaenv; `cudaenv setup " << (install ? "" : named + " ")
              << "--undo` takes it back.\n";
}

}  // namespace

void register_setup(CLI::App* cmd, Context& ctx) {
    auto shell = std::make_shared<std::string>();
    auto undo = std::make_shared<bool>(false);
    auto install = std::make_shared<std::string>();
    cmd->add_option("shell", *shell, "One of " + shell_choices() + "; default: your shell");
    cmd->add_flag("--undo", *undo, "Remove what setup added (all shells, and --install's copy, when none is named)");
    auto* inst = cmd->add_option("--install", *install,
                                 "Windows: copy the programs to DIR (default %LOCALAPPDATA%\\Programs\\cudaenv), put it "
                                 "and the shims on the user PATH, set up PowerShell and cmd")
                     ->expected(0, 1)
                     ->type_name("[DIR]");
    std::string where;
    for (const auto& sh : shells())
        where += (where.empty() ? "" : ", ") + std::string(sh.name) + ": " + std::string(sh.profile_shown);
    cmd->footer(where + ".\nWindows: the shims folder goes on the user's PATH (HKCU), never the machine's.\n"
                        "--undo removes exactly the bytes setup wrote, and refuses when they were changed since.");
    cmd->callback([&ctx, shell, undo, install, inst] {
        std::optional<std::string> dir;
        if (inst->count() > 0) dir = *install;
        run_setup(ctx, *shell, *undo, dir);
    });
}

}  // namespace cudaenv
