#include "setup/setup_run.hpp"

#include <algorithm>
#include <iostream>

#include "shell/shell.hpp"
#include "shell/shells.hpp"
#include "shell/profile_lines.hpp"
#include "store/store.hpp"
#include "platform/platform.hpp"
#include "platform/profiles.hpp"
#include "platform/userenv.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/report.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

void undo_setup(Store& store, SetupSession& s, const std::string& shell, bool all, std::span<const CommandInfo> commands) {
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
                remove_profile_block(s, pr, profile_block_lines(shell_info(pr.shell), exe, shims, !platform::has_user_environment));
            });
        }
    // No record (setup.toml lost): setup's own block, byte for byte, still goes.
    if (!all)
        for (const auto& p : profile_paths(shell_info(shell), platform::current_profile_env()))
            if (std::find(done.begin(), done.end(), fsx::to_utf8(p)) == done.end())
                attempt([&] {
                    remove_profile_block(s, ProfileRecord{fsx::to_utf8(p), shell, false, {}, std::nullopt},
                                         profile_block_lines(shell_info(shell), exe, shims, !platform::has_user_environment));
                });
    if (all) {
        auto pythons = s.record.pythons;
        for (const auto& py : pythons) attempt([&] { remove_python_hook(s, py); });
    }
    if (platform::has_user_environment) {
        if (all || shell_info(shell).autorun) {
            auto installed = s.record.install ? (fsx::from_utf8(s.record.install->dir) / program_names()[0]) : fs::path();
            attempt([&] { remove_autorun(s, autorun_line(s.record.install ? fsx::to_utf8(installed) : exe, store, commands)); });
        }
        if (s.record.profiles.empty() && !s.record.win.autorun_set) attempt([&] { remove_user_path(s); });
        if (all && s.record.install) attempt([&] {
            // Windows cannot delete a running program: when this is the
            // installed copy, move it aside into the store (same volume).
            auto self = platform::executable_path();
            std::error_code ec;
            if (fs::equivalent(self.parent_path(), fsx::from_utf8(s.record.install->dir), ec) && !ec) {
                auto aside = store.tmp_dir() / fsx::from_utf8("cudaenv-removed" + std::string(platform::exe_suffix()));
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

}  // namespace cudaenv
