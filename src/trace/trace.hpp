#pragma once
// `cudaenv trace`: reads what the tracer recorded (platform/tracer.hpp), tells
// where each CUDA-family library came from and why the loader found it there,
// and judges the whole run against the pair.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "core/inventory.hpp"
#include "core/origin.hpp"

namespace cudaenv::trace {

struct Process {
    long pid = 0, ppid = 0;
    std::string exe, argv0;
};

// One library a process mapped. `how` is why the loader found it there:
// "absolute" (a path given as is: dlopen/ctypes of a full path, a preload),
// "runpath" (DT_RPATH/DT_RUNPATH), "libpath" (LD_LIBRARY_PATH), "config"
// (ld.so.cache), "default" (the loader's default folders); Windows:
// "app-folder", "system", "path", "dll-dirs" (a Python process: a folder of
// CUDAENV_DLL_DIRS, which cudaenv's Python hook adds); "" when the record does not say.
struct Load {
    long pid = 0;
    std::string path, how, requester, asked;
};

struct Records {
    std::vector<Process> processes;
    std::vector<Load> loads;
};
// The P/S/O lines of audit/cudaenv_audit.c (the Windows tracer writes the same).
Records parse_records(const std::string& text);

struct Library {
    Load load;
    std::string name, real_path, version;  // version: "9.8.0", "12" (major only), "" unknown
    cudaenv::origin::Origin origin;
    std::string why;      // "RUNPATH of /x/prog (/y/lib)", "LD_LIBRARY_PATH", ...
    bool ok = true;       // from the pair or the driver
    std::string advice;   // when not ok: the one thing to do
};

struct Report {
    std::string spec;                 // the traced pair; "system" for none
    std::vector<Process> processes;
    std::vector<Library> libraries;
    std::string driver_version;       // the kernel driver's (NVML, /proc): "" unknown
    std::string compat_library;       // a loaded libcuda of another version: the cuda-compat library's path
    std::string compat_version;       // and its version ("560.35.05")
    std::string verdict;              // one line
    std::vector<std::string> problems, warnings, notes;
    bool mismatch = false;
};

struct Input {
    std::string spec;                         // "system" when no pair
    std::optional<origin::PairDirs> pair;
    std::vector<origin::PairDirs> others;
    // The kernel driver's version (/proc, /sys), never a loaded libcuda's file
    // name: with the cuda-compat libraries that name is theirs. "" unknown.
    std::string driver_version;
};
Report analyse(const Records& records, const Input& input);

// The input for a run under `plan`'s pair: it and every other pair the store
// knows, each by the spec `list` shows (two installs of one version share the
// short one, so the traced pair is told from the others by folder), and the
// system's driver version.
Input input_for(const Activation& plan, Inventory& inventory);

// The text for stderr; `exit_code`/`signal_name` describe how the command ended.
std::string render_text(const Report& report, int exit_code, const std::string& signal_name);
nlohmann::json to_json(const Report& report, int exit_code, const std::string& signal_name);

}  // namespace cudaenv::trace

namespace cudaenv::trace {
// The kernel driver's version from /proc/driver/nvidia/version; "" elsewhere.
std::string system_driver_version();
}
