#pragma once
// Runs a command and records every CUDA-family library each process of its
// tree loads (`cudaenv trace`). Linux: the rtld-audit library (audit/), so no
// ptrace and every route into the loader is seen; Windows: the debug API.
// Both hand back the same line records (see audit/cudaenv_audit.c), which
// src/trace/records.cpp reads.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace cudaenv::platform {

struct TraceRun {
    int exit_code = 0;         // the command's own; 128+N when a signal ended it
    int signal = 0;            // POSIX: that signal; Windows: 0
    std::string signal_name;   // "SIGSEGV"; on Windows an exception name when it crashed
    std::string records;       // P/S/O lines, as audit/cudaenv_audit.c writes them
};

// Runs argv (argv[0] searched on PATH from `env`) with `env`, stdin/stdout/
// stderr inherited, and waits for it. Throws Error (exit 127) when the
// command does not exist, Error when tracing cannot be set up.
TraceRun trace_command(const std::vector<std::string>& argv,
                       const std::vector<std::pair<std::string, std::string>>& env);

// Linux: where the audit library is, in lookup order
// <exe dir>/../lib/cudaenv/libcudaenv-audit.so (installed),
// <exe dir>/libcudaenv-audit.so (build tree); empty on Windows.
std::vector<std::filesystem::path> audit_library_candidates();

}  // namespace cudaenv::platform
