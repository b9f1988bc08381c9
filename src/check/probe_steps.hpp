#pragma once
// What the probe's steps share (check/probe_*.cpp): the state one probe run
// builds up step by step, and the steps. Internal to the probe.
#include <chrono>
#include <filesystem>
#include <future>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "check/probe_options.hpp"
#include "check/probe_internal.hpp"
#include "check/result.hpp"
#include "core/detect.hpp"
#include "platform/dynlib.hpp"

namespace cudaenv::check {

namespace fs = std::filesystem;

struct LibFile {
    std::string name;
    std::string group;  // "cudart", "cudnn", "toolkit"
    bool required = true;
    fs::path path;      // empty when not found
};

struct Probe {
    const ProbeOptions& opts;
    std::ostream& out;
    std::optional<Toolkit> tk;
    std::optional<Cudnn> dnn;
    std::vector<fs::path> tk_dirs, dnn_dirs;
    std::vector<LibFile> files;
    std::vector<platform::DynLib> libs;
    platform::DynLib cudart, cudnn_shim;
    CudaFns cuda;
    CudnnFns cudnn;
    bool cuda_ok = false, cudnn_ok = false;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;  // GPU 0's multiprocessors: with the compute capability, which GPU a kept choice is for
    // GPU 0's CUDA context, created as soon as the runtime is loaded, while
    // cuDNN's libraries load (step_load); waited for before the GPU is used.
    std::future<void> context{};

    // When the probe started: each step says when it ended (details.at_ms), so a
    // check's time can be seen step by step (docs/gpu-results.md).
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();

    void emit(StepResult r) {
        r.details["at_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        out << probe_marker << r.to_json().dump() << "\n";
        out.flush();
    }
};

// Step 1 (probe_files.cpp): every library the pair needs, found in its folders.
StepResult step_files(Probe& p);
// Step 2 (probe_load.cpp): each library loaded by absolute path, every symbol
// of check/api.hpp's lists resolved; then where each loaded library came from.
StepResult step_load(Probe& p);
StepResult step_origins(Probe& p);
// Step 3 (probe_versions.cpp): what the libraries say of their versions.
StepResult step_versions(Probe& p, int& runtime_version, int& driver_version);
// Step 4 (probe_device.cpp): the driver, the GPU and whether the pair supports it.
StepResult step_gpu(Probe& p, int runtime_version, int driver_cuda);

// The names of the pair's libraries on this OS (core/cudalibs).
std::string cudart_name(int cuda_major);
std::vector<std::string> cudnn_names(int major);

}  // namespace cudaenv::check
