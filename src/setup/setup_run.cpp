#include "setup/setup_run.hpp"

#include <algorithm>
#include <iostream>

#include "core/pathlist.hpp"
#include "setup/exec_policy.hpp"
#include "setup/python_hook.hpp"
#include "shell/shell.hpp"
#include "shell/shells.hpp"
#include "shell/profile_lines.hpp"
#include "store/rehash.hpp"
#include "store/store.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "platform/profiles.hpp"
#include "platform/userenv.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/report.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace fs = std::filesystem;

const std::vector<std::string>& program_names() {
    static const std::vector<std::string> names = {std::string("cudaenv") + platform::exe_suffix(),
                                                   std::string("cudaenv-shim") + platform::exe_suffix(),
                                                   std::string("cudaenv-install") + platform::exe_suffix(),
                                                   std::string("cudaenv-probe") + platform::exe_suffix()};
    return names;
}

std::vector<std::string> files_to_install(const fs::path& from) {
    auto files = program_names();
    const auto priv = fs::path("lib") / "cudaenv";
    std::error_code ec;
    for (fs::directory_iterator it(from / priv, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(fsx::to_utf8(priv / it->path().filename()));
    std::sort(files.begin() + static_cast<std::ptrdiff_t>(program_names().size()), files.end());
    return files;
}

std::string autorun_line(const std::string& exe, Store& store, std::span<const CommandInfo> commands) {
    auto line = make_shell("cmd")->init_script({exe, fsx::to_utf8(store.shims_dir()), true, commands});
    return std::string(str::trim(line));
}

void check_setup_request(SetupRequest& request) {
    auto& shell = request.shell;
    const auto& install = request.install;
    bool all = shell.empty();
    if (!all) shell = std::string(shell_info(shell).name);  // validates; powershell = pwsh
    if (!all && !can_set_up(shell_info(shell), platform::is_windows))
        throw UsageError(shell + " exists only on Windows", "name the shell you use: cudaenv setup <shell>");
    if (install && !platform::has_user_environment)
        throw UsageError("--install is for Windows", "on Linux install the .deb package, or `cmake --install` a build");
    if (install && (request.undo || !all))
        throw UsageError("--install takes no shell and no --undo", "cudaenv setup --install [<folder>]");
    if (request.python && (!all || install))
        throw UsageError("--python takes no shell and no --install",
                         "cudaenv setup --python <interpreter or venv> (and --undo to take it back)");
}

namespace {

// `setup --python X` and `setup --python X --undo`.
void run_python_setup(SetupSession& s, const std::string& arg, bool undo) {
    const auto path = platform::get_env("PATH").value_or("");
    if (undo) {
        // The environment as named now; a record of the same interpreter
        // goes too when it can no longer be asked (a venv deleted since).
        std::optional<PythonEnvironment> py;
        try {
            py = find_python_environment(arg, platform::current_dir(), path);
        } catch (const Error&) {
        }
        const auto named = fsx::to_utf8(fsx::absolute_normal(platform::current_dir() / fsx::from_utf8(arg)));
        auto records = s.record.pythons;
        bool any = false;
        for (const auto& r : records)
            if ((py && same_path_entry(r.site_packages, fsx::to_utf8(py->site_packages), native_path_style())) ||
                (py && r.interpreter == py->interpreter) || r.interpreter == named) {
                remove_python_hook(s, r);
                any = true;
            }
        if (!any) s.out << "no DLL hook of cudaenv's is recorded for " << arg << "\n";
        return;
    }
    auto py = find_python_environment(arg, platform::current_dir(), path);
    add_python_hook(s, {py.interpreter, py.site_packages, py.cache_tag, python_hook_files()});
    // Compiled now, not at the starts (docs/python.md has the cost); undo removes the bytecode.
    if (!compile_python_hook(py)) s.out << "note: the module's bytecode could not be written now; Python compiles it\n";
    const auto take_back = "`cudaenv setup --python " + arg + " --undo` takes it back.\n";
    if (!platform::python_needs_dll_hook)
        s.out << "note: the hook acts only on Windows (Python " << py.major << "." << py.minor
              << " here finds libraries through LD_LIBRARY_PATH), so it does nothing on this machine; " << take_back;
    else if (py.major == 3 && py.minor < 8)
        s.out << "note: Python " << py.major << "." << py.minor
              << " searches PATH for DLLs itself, and the hook acts from Python 3.8 on; " << take_back;
    else
        s.out << "Python started from " << py.interpreter << " now finds the DLLs of the pair `cudaenv use` activates; "
              << take_back;
}

}  // namespace


void run_setup(Store& store, const SetupRequest& request) {
    const auto& shell = request.shell;
    const bool undo_ = request.undo;
    const auto& install = request.install;
    const bool all = shell.empty();
    auto record_file = store.setup_file();
    auto rec = SetupRecord::load(record_file);
    auto host = make_real_setup_host();
    SetupSession s{*host, rec, std::cout, [&] { rec.save(record_file); }};

    if (request.python) return run_python_setup(s, *request.python, undo_);
    if (undo_) return undo_setup(store, s, shell, all, request.commands);

    auto exe = platform::executable_path();
    std::optional<std::string> install_entry;
    if (install) {
        auto local = platform::get_env("LOCALAPPDATA");
        if (install->empty() && (!local || local->empty()))
            throw Error("LOCALAPPDATA is not set", "name the folder: cudaenv setup --install <folder>");
        auto dir = install->empty() ? fsx::from_utf8(*local) / "Programs" / "cudaenv"
                                    : fsx::absolute_normal(fsx::from_utf8(*install));
        install_programs(s, {exe.parent_path(), dir, files_to_install(exe.parent_path())});
        exe = dir / program_names()[0];
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
        if (sh->session_shim) write_session_shims({exe_s, shims, true, request.commands});
        if (sh->autorun) add_autorun(s, autorun_line(exe_s, store, request.commands));
        for (const auto& p : profiles)
            add_profile_block(s, {p, std::string(sh->name), sh->reads,
                                  profile_block_lines(*sh, exe_s, shims, !platform::has_user_environment),
                                  created_with_bom(*sh, platform::is_windows)});
        pwsh = pwsh || sh->name == "pwsh";
    }
    if (platform::has_user_environment) add_user_path(s, shims, install_entry);
    if (pwsh) require_profiles_run(std::cout);
    auto named = install ? std::string("terminal") : chosen.front();
    std::cout << "Open a new " << named << " to use cudaenv; `cudaenv setup " << (install ? "" : named + " ")
              << "--undo` takes it back.\n";
}

}  // namespace cudaenv
