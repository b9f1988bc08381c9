#include "platform/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/exec_args_posix.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace {

constexpr size_t output_cap = 8u << 20;

std::string signal_name(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV";
        case SIGABRT: return "SIGABRT";
        case SIGBUS: return "SIGBUS";
        case SIGFPE: return "SIGFPE";
        case SIGILL: return "SIGILL";
        case SIGKILL: return "SIGKILL";
        case SIGTERM: return "SIGTERM";
        default: return "signal " + std::to_string(sig);
    }
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& name, const std::string& path, bool empty_is_cwd) {
    if (name.find('/') != std::string::npos) return name;
    for (const auto& dir : str::split(path, ':')) {
        if (dir.empty() && !empty_is_cwd) continue;
        auto candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        struct stat st {};
        if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return std::nullopt;
}

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& env,
                          std::chrono::milliseconds timeout) {
    ProcessResult r;
    ExecArgs args(argv, env);
    auto program = argv.empty() ? std::nullopt : find_on_path(argv[0], args.path());
    if (!program) {
        r.error = "command not found: " + (argv.empty() ? std::string() : argv[0]);
        return r;
    }

    int out_pipe[2], err_pipe[2], exec_pipe[2];
    if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0 || ::pipe2(exec_pipe, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    auto start = std::chrono::steady_clock::now();
    pid_t pid = ::fork();
    if (pid < 0) {
        r.error = std::string("fork: ") + std::strerror(errno);
        return r;
    }
    if (pid == 0) {
        // Own process group, so a timeout kills whatever the child started too.
        ::setpgid(0, 0);
        int devnull = ::open("/dev/null", O_RDONLY);
        if (devnull >= 0) ::dup2(devnull, 0);
        ::dup2(out_pipe[1], 1);
        ::dup2(err_pipe[1], 2);
        ::execve(program->c_str(), args.argv(), args.envp());
        int e = errno;
        [[maybe_unused]] auto n = ::write(exec_pipe[1], &e, sizeof e);
        ::_exit(127);
    }
    ::setpgid(pid, pid);
    ::close(out_pipe[1]);
    ::close(err_pipe[1]);
    ::close(exec_pipe[1]);
    int exec_errno = 0;
    if (::read(exec_pipe[0], &exec_errno, sizeof exec_errno) == static_cast<ssize_t>(sizeof exec_errno)) {
        ::close(exec_pipe[0]);
        ::close(out_pipe[0]);
        ::close(err_pipe[0]);
        ::waitpid(pid, nullptr, 0);
        r.error = "cannot run '" + *program + "': " + std::strerror(exec_errno);
        return r;
    }
    ::close(exec_pipe[0]);
    r.started = true;

    pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
    std::string* bufs[2] = {&r.out, &r.err};
    int open_fds = 2;
    auto deadline = start + timeout;
    char chunk[65536];
    int status = 0;
    bool reaped = false;
    // Reads what is there; returns false once both pipes are closed.
    auto read_ready = [&](int wait_ms) {
        int n = ::poll(fds, 2, wait_ms);
        if (n <= 0) return n < 0 && errno == EINTR;
        bool any = false;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            ssize_t got = ::read(fds[i].fd, chunk, sizeof chunk);
            if (got > 0) {
                any = true;
                if (bufs[i]->size() < output_cap) bufs[i]->append(chunk, static_cast<size_t>(got));
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open_fds;
            }
        }
        return any;
    };
    while (open_fds > 0) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            r.timed_out = true;
            break;
        }
        // Short waits, so that the child's exit is seen though a process it
        // started still holds its stdout (reading stops with the child, not with EOF).
        read_ready(static_cast<int>(std::min<long long>(left.count(), 50)));
        if (open_fds == 0) break;
        pid_t w = ::waitpid(pid, &status, WNOHANG);
        if (w == pid) {
            reaped = true;
            // What the child wrote before it ended is in the pipes now: take it, then stop.
            for (int rounds = 0; open_fds > 0 && rounds < 1024 && read_ready(0); ++rounds) {
            }
            break;
        }
    }
    if (r.timed_out) ::kill(-pid, SIGKILL);
    for (auto& f : fds)
        if (f.fd >= 0) ::close(f.fd);
    // Output closed but the child may still run (it closed its stdout): wait up to the deadline.
    while (!reaped) {
        pid_t w = ::waitpid(pid, &status, r.timed_out ? 0 : WNOHANG);
        if (w == pid) break;
        if (w < 0 && errno != EINTR) break;
        if (w == 0) {
            if (std::chrono::steady_clock::now() >= deadline) {
                r.timed_out = true;
                ::kill(-pid, SIGKILL);
                continue;
            }
            ::usleep(2000);
        }
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (WIFEXITED(status)) {
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
        r.signal_name = signal_name(r.signal);
    }
    return r;
}

}  // namespace cudaenv::platform
