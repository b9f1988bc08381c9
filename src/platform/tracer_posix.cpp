#include "platform/tracer.hpp"
#include "platform/install_dirs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "platform/audit_abi.h"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace {

const char* signal_text(int sig) {
    const char* abbrev = sigabbrev_np(sig);
    return abbrev ? abbrev : nullptr;
}

// SIGTERM and SIGHUP while the command runs go to the command (as a shell's
// foreground job gets them), so it is never left running without us; we
// report how it ended and remove the records on the way out.
volatile sig_atomic_t g_child = 0;
volatile sig_atomic_t g_pending = 0;

void forward_signal(int sig) {
    if (g_child > 0) ::kill(static_cast<pid_t>(g_child), sig);
    else g_pending = sig;
}

// While the command runs: Ctrl-C and Ctrl-\ go to the command (cudaenv
// stays to report what it loaded), SIGTERM and SIGHUP are forwarded to it.
class ForegroundSignals {
public:
    ForegroundSignals() {
        struct sigaction ign {}, fwd {};
        ign.sa_handler = SIG_IGN;
        fwd.sa_handler = forward_signal;
        g_child = 0;
        g_pending = 0;
        ::sigaction(SIGINT, &ign, &old_int_);
        ::sigaction(SIGQUIT, &ign, &old_quit_);
        ::sigaction(SIGTERM, &fwd, &old_term_);
        ::sigaction(SIGHUP, &fwd, &old_hup_);
    }
    ~ForegroundSignals() { restore(); }
    ForegroundSignals(const ForegroundSignals&) = delete;
    ForegroundSignals& operator=(const ForegroundSignals&) = delete;

    // The handlers from before (also in the child, before it execs the command).
    void restore() {
        g_child = 0;
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGQUIT, &old_quit_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
        ::sigaction(SIGHUP, &old_hup_, nullptr);
    }
    // The command exists: a signal that came before it is sent now.
    void started(pid_t pid) {
        g_child = pid;
        if (g_pending) ::kill(pid, g_pending);
    }

private:
    struct sigaction old_int_ {}, old_quit_ {}, old_term_ {}, old_hup_ {};
};

// The private folder that holds the record file; removed on every way out.
struct RecordDir {
    std::string dir, file;
    int fd = -1;
    struct stat st {};
    ~RecordDir() {
        if (fd >= 0) ::close(fd);
        if (!file.empty()) ::unlink(file.c_str());
        if (!dir.empty()) ::rmdir(dir.c_str());
    }

    // A private folder (0700) with one record file, opened O_APPEND so the
    // lines of every process in the tree stay whole.
    void create() {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/cudaenv-trace.XXXXXX";
        // The audit library takes a record path up to CUDAENV_AUDIT_PATH_MAX: a
        // longer TMPDIR would leave it silently recording nothing.
        if (templ.size() + sizeof "/records" > CUDAENV_AUDIT_PATH_MAX) templ = "/tmp/cudaenv-trace.XXXXXX";
        if (!::mkdtemp(templ.data())) throw Error("cannot create a folder in " + templ + ": " + std::strerror(errno));
        dir = templ;
        file = dir + "/records";
        int fd0 = ::open(file.c_str(), O_RDWR | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
        if (fd0 < 0) throw Error("cannot create " + file + ": " + std::strerror(errno));
        // A high number, out of the way of fds shells and programs pick themselves.
        fd = ::fcntl(fd0, F_DUPFD_CLOEXEC, 100);
        ::close(fd0);
        if (fd < 0) throw Error(std::string("fcntl: ") + std::strerror(errno));
        ::fstat(fd, &st);
    }

    // What the processes wrote (at most 64 MiB).
    std::string read() const {
        std::string out;
        char buf[65536];
        off_t off = 0;
        for (;;) {
            ssize_t n = ::pread(fd, buf, sizeof buf, off);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            out.append(buf, static_cast<size_t>(n));
            off += n;
            if (out.size() > (64u << 20)) break;
        }
        return out;
    }
};

// The audit library's absolute path; throws when it is missing or LD_AUDIT cannot carry it.
std::string audit_library() {
    std::filesystem::path audit;
    for (const auto& c : audit_library_candidates())
        if (fsx::is_file(c)) {
            audit = std::filesystem::absolute(c);
            break;
        }
    if (audit.empty())
        throw Error("the audit library libcudaenv-audit.so is missing (looked in " +
                        fsx::to_utf8(audit_library_candidates()[0].parent_path()) + " and " +
                        fsx::to_utf8(audit_library_candidates()[1].parent_path()) + ")",
                    "reinstall cudaenv: trace needs libcudaenv-audit.so in its private folder");
    auto s = fsx::to_utf8(audit);
    if (s.find(':') != std::string::npos)
        throw Error("the audit library's path holds a ':', which LD_AUDIT cannot carry: " + s);
    return s;
}

}  // namespace

std::vector<std::filesystem::path> audit_library_candidates() {
    // Installed: the private folder; in a build tree: beside the program.
    return {private_lib_dir() / "libcudaenv-audit.so", executable_path().parent_path() / "libcudaenv-audit.so"};
}

TraceRun trace_command(const std::vector<std::string>& argv,
                       const std::vector<std::pair<std::string, std::string>>& env_in) {
    std::string path_var;
    for (const auto& [k, v] : env_in)
        if (k == "PATH") path_var = v;
    auto program = argv.empty() ? std::nullopt : find_on_path(argv[0], path_var);
    if (!program || (argv[0].find('/') != std::string::npos && !fsx::exists(*program)))
        throw Error("command not found: " + (argv.empty() ? std::string() : argv[0]), "", 127);

    const auto audit_s = audit_library();
    RecordDir rec;
    rec.create();
    const auto& st = rec.st;

    auto env = env_in;
    std::string user_audit;
    std::erase_if(env, [&](const auto& kv) {
        if (kv.first == "LD_AUDIT") user_audit = kv.second;
        return kv.first == "LD_AUDIT" || kv.first == CUDAENV_AUDIT_ENV;
    });
    // The user's own audit libraries keep running: LD_AUDIT is a list, and
    // the loader calls each library in order.
    env.emplace_back("LD_AUDIT", user_audit.empty() ? audit_s : audit_s + ":" + user_audit);
    env.emplace_back(CUDAENV_AUDIT_ENV, std::to_string(rec.fd) + ":" + std::to_string(st.st_dev) + ":" +
                                             std::to_string(st.st_ino) + ":" + rec.file);

    std::vector<std::string> kv;
    for (const auto& [k, v] : env) kv.push_back(k + "=" + v);
    std::vector<char*> cargv, cenv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    for (auto& s : kv) cenv.push_back(s.data());
    cenv.push_back(nullptr);

    int exec_pipe[2];
    if (::pipe2(exec_pipe, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
    ForegroundSignals signals;
    std::cout.flush();
    std::cerr.flush();
    pid_t pid = ::fork();
    if (pid < 0) throw Error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        signals.restore();
        // The record fd is inherited by the command and everything it execs.
        ::fcntl(rec.fd, F_SETFD, 0);
        ::execve(program->c_str(), cargv.data(), cenv.data());
        int e = errno;
        [[maybe_unused]] auto n = ::write(exec_pipe[1], &e, sizeof e);
        ::_exit(127);
    }
    signals.started(pid);
    ::close(exec_pipe[1]);
    int exec_errno = 0;
    ssize_t got;
    do got = ::read(exec_pipe[0], &exec_errno, sizeof exec_errno);
    while (got < 0 && errno == EINTR);
    ::close(exec_pipe[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    signals.restore();
    if (got == sizeof exec_errno)
        throw Error("cannot run '" + *program + "': " + std::strerror(exec_errno), "",
                    exec_errno == ENOENT ? 127 : 126);

    TraceRun run;
    if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) {
        run.signal = WTERMSIG(status);
        run.exit_code = 128 + run.signal;
        auto* name = signal_text(run.signal);
        run.signal_name = name ? std::string("SIG") + name : "signal " + std::to_string(run.signal);
    }
    run.records = rec.read();
    return run;
}

}  // namespace cudaenv::platform
