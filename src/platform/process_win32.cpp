#include "platform/process.hpp"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>

#include <thread>

#include "platform/win32.hpp"
#include "platform/win_cmdline.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace {

constexpr size_t output_cap = 8u << 20;

using win32::exception_name;
using win32::widen;

void drain(HANDLE h, std::string* buf) {
    char chunk[65536];
    DWORD got = 0;
    while (ReadFile(h, chunk, sizeof chunk, &got, nullptr) && got > 0)
        if (buf->size() < output_cap) buf->append(chunk, got);
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& name, const std::string& path, bool /*empty_is_cwd*/) {
    auto has_sep = name.find_first_of("\\/") != std::string::npos;
    std::vector<std::string> exts = {""};
    for (const auto& e : str::split(".EXE;.CMD;.BAT;.COM", ';')) exts.push_back(e);
    auto try_file = [&](const std::string& base) -> std::optional<std::string> {
        for (const auto& e : exts) {
            auto p = fsx::from_utf8(base + e);
            if (fsx::is_file(p)) return fsx::to_utf8(p);
        }
        return std::nullopt;
    };
    if (has_sep) return try_file(name);
    for (const auto& dir : str::split(path, ';')) {
        if (dir.empty()) continue;
        std::string d = dir;
        if (d.size() >= 2 && d.front() == '"' && d.back() == '"') d = d.substr(1, d.size() - 2);
        if (auto f = try_file(d + "\\" + name)) return f;
    }
    return std::nullopt;
}

ProcessResult run_process(const std::vector<std::string>& argv,
                          const std::vector<std::pair<std::string, std::string>>& env,
                          std::chrono::milliseconds timeout) {
    ProcessResult r;
    std::string path;
    for (const auto& [k, v] : env)
        if (str::iequals_ascii(k, "PATH")) path = v;
    auto program = argv.empty() ? std::nullopt : find_on_path(argv[0], path);
    if (!program) {
        r.error = "command not found: " + (argv.empty() ? std::string() : argv[0]);
        return r;
    }
    auto args = argv;
    args[0] = *program;
    std::wstring cmdline = windows_command_line(args);
    std::wstring block;
    for (const auto& [k, v] : env) block += widen(k) + L"=" + widen(v) + L'\0';
    block += L'\0';

    SECURITY_ATTRIBUTES sa{sizeof sa, nullptr, TRUE};
    HANDLE out_r, out_w, err_r, err_w;
    CreatePipe(&out_r, &out_w, &sa, 0);
    CreatePipe(&err_r, &err_w, &sa, 0);
    SetHandleInformation(out_r, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(err_r, HANDLE_FLAG_INHERIT, 0);
    HANDLE nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &sa, OPEN_EXISTING, 0, nullptr);

    STARTUPINFOW si{};
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = nul;
    si.hStdOutput = out_w;
    si.hStdError = err_w;
    PROCESS_INFORMATION pi{};
    // A job object kills the child and anything it started when we give up on it.
    HANDLE job = CreateJobObjectW(nullptr, nullptr);
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
    limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
    if (job) SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits);

    auto start = std::chrono::steady_clock::now();
    // No error dialogs from the child when a DLL is missing or it crashes.
    UINT old_mode = SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    BOOL ok = CreateProcessW(widen(*program).c_str(), cmdline.data(), nullptr, nullptr, TRUE,
                             CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW | CREATE_SUSPENDED, block.data(), nullptr,
                             &si, &pi);
    SetErrorMode(old_mode);
    CloseHandle(out_w);
    CloseHandle(err_w);
    if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
    if (!ok) {
        r.error = "cannot run '" + *program + "': error " + std::to_string(GetLastError());
        CloseHandle(out_r);
        CloseHandle(err_r);
        if (job) CloseHandle(job);
        return r;
    }
    if (job) AssignProcessToJobObject(job, pi.hProcess);
    ResumeThread(pi.hThread);
    r.started = true;
    std::thread t_out(drain, out_r, &r.out), t_err(drain, err_r, &r.err);
    auto ms = static_cast<DWORD>(std::min<long long>(timeout.count(), 0x7FFFFFFF));
    if (WaitForSingleObject(pi.hProcess, ms) == WAIT_TIMEOUT) {
        r.timed_out = true;
        if (job) TerminateJobObject(job, 1);
        TerminateProcess(pi.hProcess, 1);
        WaitForSingleObject(pi.hProcess, INFINITE);
    }
    if (job) CloseHandle(job);  // also ends grandchildren that still hold the pipes
    t_out.join();
    t_err.join();
    DWORD code = 0;
    GetExitCodeProcess(pi.hProcess, &code);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.timed_out) {
        auto name = exception_name(code);
        if (!name.empty() || code >= 0xC0000000) {
            r.signal_name = name.empty() ? "exception 0x" + [&] {
                char buf[16];
                snprintf(buf, sizeof buf, "%08lX", static_cast<unsigned long>(code));
                return std::string(buf);
            }() : name;
        } else {
            r.exit_code = static_cast<int>(code);
        }
    }
    CloseHandle(pi.hThread);
    CloseHandle(pi.hProcess);
    CloseHandle(out_r);
    CloseHandle(err_r);
    return r;
}

}  // namespace cudaenv::platform
