// `cudaenv trace` on Windows: the debug API. The command runs as a debuggee
// (DEBUG_PROCESS, so every process it starts is one too); each
// LOAD_DLL_DEBUG_EVENT names a DLL by its file handle, whose path
// GetFinalPathNameByHandleW gives. Every event is continued at once and
// exceptions are passed back untouched (DBG_EXCEPTION_NOT_HANDLED), so the
// program runs as it would without us. The records are the same lines the
// Linux audit library writes (audit/cudaenv_audit.c).
#include "platform/tracer.hpp"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <tlhelp32.h>

#include <algorithm>
#include <iostream>
#include <map>

#include "platform/win32.hpp"
#include "platform/win_cmdline.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::platform {

namespace {

using win32::exception_name;
using win32::narrow;
using win32::widen;

// The file's path without the \\?\ prefix GetFinalPathNameByHandleW adds.
std::string handle_path(HANDLE file) {
    if (!file) return {};
    std::vector<wchar_t> buf(32768);
    DWORD n = GetFinalPathNameByHandleW(file, buf.data(), static_cast<DWORD>(buf.size()), FILE_NAME_NORMALIZED);
    if (n == 0 || n >= buf.size()) return {};
    std::wstring p(buf.data(), n);
    if (p.rfind(L"\\\\?\\UNC\\", 0) == 0) p = L"\\\\" + p.substr(8);
    else if (p.rfind(L"\\\\?\\", 0) == 0) p = p.substr(4);
    return narrow(p);
}

std::string escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '\\') out += "\\\\";
        else if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

bool interesting(const std::string& path) {
    auto base = str::to_lower_ascii(fsx::to_utf8(fsx::from_utf8(path).filename()));
    // NVIDIA's are DLLs; a Python extension module named after one (CuPy's
    // cupy_backends\cuda\libs\cudnn.cp312-win_amd64.pyd) is not a cuDNN.
    if (!base.ends_with(".dll")) return false;
    for (auto p : {"nvcuda", "cudart", "cublas", "cufft", "curand", "cusolver", "cusparse", "nvrtc", "nvjitlink",
                   "nvtoolsext", "cudnn", "nvml", "cupti", "nvjpeg", "npp"})
        if (base.rfind(p, 0) == 0) return true;
    return false;
}

std::string folder_key(const std::string& p) {
    auto s = str::to_lower_ascii(p);
    std::replace(s.begin(), s.end(), '/', '\\');
    while (s.size() > 3 && s.back() == '\\') s.pop_back();
    return s;
}

DWORD parent_of(DWORD pid) {
    HANDLE snap = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
    if (snap == INVALID_HANDLE_VALUE) return 0;
    PROCESSENTRY32W e{};
    e.dwSize = sizeof e;
    DWORD parent = 0;
    for (BOOL ok = Process32FirstW(snap, &e); ok; ok = Process32NextW(snap, &e))
        if (e.th32ProcessID == pid) parent = e.th32ParentProcessID;
    CloseHandle(snap);
    return parent;
}

}  // namespace

std::vector<std::filesystem::path> audit_library_candidates() { return {}; }

TraceRun trace_command(const std::vector<std::string>& argv,
                       const std::vector<std::pair<std::string, std::string>>& env) {
    std::wstring cmdline = windows_command_line(argv), path;
    std::wstring block = windows_env_block(env, win32::upper, &path);
    auto program = argv.empty() ? std::nullopt : win32::find_program(widen(argv[0]), path);
    if (!program) throw Error("command not found: " + (argv.empty() ? std::string() : argv[0]), "", 127);

    // The folders of PATH, of System32, to tell why a DLL was found where it was.
    std::vector<std::string> path_dirs;
    for (const auto& d : str::split(narrow(path), ';'))
        if (!d.empty()) path_dirs.push_back(folder_key(d));
    // And those cudaenv's Python hook adds with os.add_dll_directory
    // (CUDAENV_DLL_DIRS, ';'-separated, a part in quotes may hold ';').
    std::vector<std::string> hook_dirs;
    for (const auto& [name, value] : env)
        if (str::iequals_ascii(name, "CUDAENV_DLL_DIRS")) {
            std::string cur;
            bool quoted = false;
            for (char c : value + ";") {
                if (c == '"') quoted = !quoted;
                else if (c == ';' && !quoted) {
                    if (!cur.empty()) hook_dirs.push_back(folder_key(cur));
                    cur.clear();
                } else cur += c;
            }
        }
    wchar_t sys[MAX_PATH];
    UINT n = GetSystemDirectoryW(sys, MAX_PATH);
    std::string system_dir = n > 0 && n < MAX_PATH ? folder_key(narrow(std::wstring(sys, n))) : "";

    STARTUPINFOW si{};
    si.cb = sizeof si;
    PROCESS_INFORMATION pi{};
    if (!CreateProcessW(program->c_str(), cmdline.data(), nullptr, nullptr, TRUE,
                        CREATE_UNICODE_ENVIRONMENT | DEBUG_PROCESS, block.data(), nullptr, &si, &pi)) {
        DWORD code = GetLastError();
        throw Error("cannot run '" + argv[0] + "' (Windows error " + std::to_string(code) + ")", "",
                    code == ERROR_FILE_NOT_FOUND || code == ERROR_PATH_NOT_FOUND ? 127 : 126);
    }
    CloseHandle(pi.hThread);
    // Ctrl+C reaches the command (same console); this process stays to report.
    SetConsoleCtrlHandler(nullptr, TRUE);

    TraceRun run;
    struct Proc {
        std::string exe_dir;
        bool first_breakpoint = true;
        bool python = false;  // python*.exe: its extension modules' DLLs are not searched on PATH (3.8+)
    };
    std::map<DWORD, Proc> live;
    DWORD main_pid = pi.dwProcessId;
    DWORD last_exception = 0;
    bool main_done = false;
    while (!live.empty() || !main_done) {
        DEBUG_EVENT ev{};
        if (!WaitForDebugEvent(&ev, INFINITE)) break;
        DWORD cont = DBG_CONTINUE;
        switch (ev.dwDebugEventCode) {
            case CREATE_PROCESS_DEBUG_EVENT: {
                auto exe = handle_path(ev.u.CreateProcessInfo.hFile);
                if (ev.u.CreateProcessInfo.hFile) CloseHandle(ev.u.CreateProcessInfo.hFile);
                auto dir = exe.substr(0, exe.find_last_of("\\/") == std::string::npos ? 0 : exe.find_last_of("\\/"));
                auto base = str::to_lower_ascii(fsx::to_utf8(fsx::from_utf8(exe).filename()));
                live[ev.dwProcessId] = {folder_key(dir), true, base.starts_with("python") && base.ends_with(".exe")};
                run.records += "P\t" + std::to_string(ev.dwProcessId) + "\t" + std::to_string(parent_of(ev.dwProcessId)) +
                               "\t" + escape(exe) + "\t" + escape(exe) + "\n";
                break;
            }
            case LOAD_DLL_DEBUG_EVENT: {
                auto dll = handle_path(ev.u.LoadDll.hFile);
                if (ev.u.LoadDll.hFile) CloseHandle(ev.u.LoadDll.hFile);
                if (dll.empty() || !interesting(dll)) break;
                auto pos = dll.find_last_of("\\/");
                auto dir = folder_key(pos == std::string::npos ? std::string() : dll.substr(0, pos));
                std::string how;
                auto it = live.find(ev.dwProcessId);
                if (it != live.end() && dir == it->second.exe_dir) how = "app-folder";
                else if (dir == system_dir) how = "system";
                else if (it != live.end() && it->second.python &&
                         std::find(hook_dirs.begin(), hook_dirs.end(), dir) != hook_dirs.end())
                    how = "dll-dirs";
                else if (std::find(path_dirs.begin(), path_dirs.end(), dir) != path_dirs.end()) how = "path";
                auto pid = std::to_string(ev.dwProcessId);
                if (!how.empty()) run.records += "S\t" + pid + "\t" + how + "\t\t" + escape(dll) + "\n";
                run.records += "O\t" + pid + "\t0\t" + escape(dll) + "\n";
                break;
            }
            case EXCEPTION_DEBUG_EVENT: {
                const auto& rec = ev.u.Exception.ExceptionRecord;
                auto it = live.find(ev.dwProcessId);
                // The loader's breakpoint that starts every debuggee is ours to continue;
                // every other exception goes back to the program as if no debugger were there.
                if (it != live.end() && it->second.first_breakpoint &&
                    (rec.ExceptionCode == EXCEPTION_BREAKPOINT || rec.ExceptionCode == 0x4000001F /* WX86 */)) {
                    it->second.first_breakpoint = false;
                } else {
                    cont = DBG_EXCEPTION_NOT_HANDLED;
                    if (!ev.u.Exception.dwFirstChance && ev.dwProcessId == main_pid) last_exception = rec.ExceptionCode;
                }
                break;
            }
            case EXIT_PROCESS_DEBUG_EVENT:
                live.erase(ev.dwProcessId);
                if (ev.dwProcessId == main_pid) {
                    main_done = true;
                    run.exit_code = static_cast<int>(ev.u.ExitProcess.dwExitCode);
                }
                break;
            default:
                break;  // threads, unloads, debug strings, RIP: nothing to do
        }
        ContinueDebugEvent(ev.dwProcessId, ev.dwThreadId, cont);
        if (main_done && !live.empty()) {
            // The command is done: let the processes it left behind run on untraced.
            DebugSetProcessKillOnExit(FALSE);
            for (const auto& [pid, p] : live) DebugActiveProcessStop(pid);
            live.clear();
        }
    }
    SetConsoleCtrlHandler(nullptr, FALSE);
    CloseHandle(pi.hProcess);
    auto name = exception_name(static_cast<DWORD>(run.exit_code));
    if (!name.empty() || (last_exception && static_cast<DWORD>(run.exit_code) == last_exception))
        run.signal_name = name.empty() ? "exception 0x" + std::to_string(last_exception) : name;
    return run;
}

}  // namespace cudaenv::platform
