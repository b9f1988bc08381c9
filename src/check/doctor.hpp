#pragma once
// `cudaenv doctor`: this machine's CUDA set-up as a whole — which CUDA wins on
// PATH, cuDNN copies that shadow the active one, zlibwapi.dll, PATH length on
// Windows, the driver against the active toolkit, and Python frameworks.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "check/doctor_input.hpp"

namespace cudaenv::check {

std::vector<Finding> run_doctor(const DoctorInput& in);

}  // namespace cudaenv::check
