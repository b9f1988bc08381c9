#include "platform/platform.hpp"
#include "platform/exec_args_posix.hpp"
#include "platform/exit.hpp"
#include "platform/process.hpp"
#include "platform/stamp.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

extern char** environ;

namespace cudaenv::platform {

std::vector<std::string> utf8_args(int argc, char** argv) { return {argv, argv + argc}; }

void init_console() {}

void exit_process(int status) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
}

std::optional<std::string> get_env(const std::string& name) {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
}

void set_env(const std::string& name, const std::string& value) { ::setenv(name.c_str(), value.c_str(), 1); }

void unset_env(const std::string& name) { ::unsetenv(name.c_str()); }

std::vector<std::pair<std::string, std::string>> environment() {
    std::vector<std::pair<std::string, std::string>> out;
    for (char** e = environ; e && *e; ++e) {
        std::string_view kv(*e);
        auto eq = kv.find('=');
        if (eq == std::string_view::npos) continue;
        out.emplace_back(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
    }
    return out;
}

fs::path current_dir() {
    // $PWD keeps the user's view of symlinked folders; fall back to getcwd.
    std::error_code ec;
    auto cwd = fs::current_path(ec);
    if (auto pwd = get_env("PWD"); pwd && !pwd->empty() && (*pwd)[0] == '/') {
        if (fs::equivalent(fsx::from_utf8(*pwd), cwd, ec)) return fsx::from_utf8(*pwd);
    }
    return cwd;
}

fs::path executable_path() {
    std::error_code ec;
    auto p = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) return p;
    return {};
}

fs::path executable_stat_path() { return "/proc/self/exe"; }

fs::path home_dir() {
    if (auto h = get_env("HOME"); h && !h->empty()) return fsx::from_utf8(*h);
    return "/";
}

fs::path default_store_root() {
    if (auto r = get_env("CUDAENV_ROOT"); r && !r->empty()) return fsx::absolute_normal(fsx::from_utf8(*r));
    if (auto x = get_env("XDG_DATA_HOME"); x && !x->empty() && (*x)[0] == '/')
        return fsx::from_utf8(*x) / "cudaenv";
    // Without a home the store would land in /.local/share: say so instead.
    auto h = get_env("HOME");
    if (!h || h->empty() || (*h)[0] != '/')
        throw Error("cannot tell where the store is: HOME is " + std::string(h && !h->empty() ? "not absolute" : "not set") +
                        " and CUDAENV_ROOT is not set",
                    "set HOME, or CUDAENV_ROOT to the store's folder");
    return fsx::from_utf8(*h) / ".local" / "share" / "cudaenv";
}

std::vector<std::string> store_root_variables() { return {"CUDAENV_ROOT", "XDG_DATA_HOME"}; }

std::string path_key(std::string_view path) { return std::string(path); }

std::string shown_path(const fs::path& p) {
    auto s = fsx::to_utf8(p), home = fsx::to_utf8(home_dir());
    if (!home.empty() && home != "/" && s.starts_with(home + "/")) return "~" + s.substr(home.size());
    return s;
}

std::optional<std::string> login_shell() { return get_env("SHELL"); }

std::tm utc_time(std::time_t t) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    return tm;
}

std::vector<fs::path> system_library_dirs() {
    return {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib",
            "/usr/local/lib"};
}

std::vector<fs::path> system_shared_dirs() {
    auto out = system_library_dirs();
    out.push_back("/usr");
    return out;
}

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }
bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

int exec_command(const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env) {
    ExecArgs args(argv, env);
    auto found = find_on_path(argv.at(0), args.path(), true);
    if (!found) throw Error("command not found: " + argv[0], "", 127);
    const auto& program = *found;
    std::cout.flush();
    ::execve(program.c_str(), args.argv(), args.envp());
    int err = errno;
    throw Error("cannot run '" + program + "': " + std::strerror(err), "", err == ENOENT ? 127 : 126);
}

std::optional<FileStamp> file_stamp(const fs::path& p) { return file_stamp(p.native()); }

std::optional<FileStamp> file_stamp(const std::string& utf8) {
    struct stat st {};
    if (::stat(utf8.c_str(), &st) != 0) return std::nullopt;
    auto ns = [](const timespec& t) { return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec; };
    auto id = static_cast<unsigned long long>(st.st_ino) ^ (static_cast<unsigned long long>(st.st_dev) << 40);
    return FileStamp{ns(st.st_mtim), ns(st.st_ctim), id, static_cast<unsigned long long>(st.st_size),
                     S_ISDIR(st.st_mode)};
}

bool is_executable(const fs::path& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
}

void make_executable(const fs::path& p) {
    std::error_code ec;
    fs::permissions(p, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add, ec);
}

const char* exe_suffix() { return ""; }

}  // namespace cudaenv::platform
