#pragma once
// What doctor (check/doctor.hpp) and its topics (check/doctor_clients.hpp,
// check/doctor_gpu.hpp) read, and the shape of what they find.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "check/result.hpp"
#include "core/activation.hpp"
#include "core/pairs.hpp"

namespace cudaenv::check {

// One topic of doctor's report: the same five fields as a step of `check`
// (its name is the topic; --json writes it as "topic").
using Finding = StepResult;

struct DoctorInput {
    EnvReader env;
    std::string active_spec;                 // "system" when none
    std::optional<DetectedPair> active;      // the active pair's folders
    std::string active_error;                // why the active pair could not be read
    PathStyle style = native_path_style();
    bool windows = false;                    // apply Windows' DLL rules
    std::vector<std::string> system_dirs;    // System32, or the Linux system library folders
    std::chrono::milliseconds python_timeout{std::chrono::seconds(90)};
    // The driver, as the machine's record has it (gpu/machine: NVML, the
    // kernel module, nvidia-smi; or --driver): "" unknown.
    std::string driver, driver_source, driver_cuda;
};

}  // namespace cudaenv::check
