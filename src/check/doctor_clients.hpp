#pragma once
// doctor's findings about the clients of a pair: each framework in the active
// Python against the compatibility data (core/frameworks), the host compiler
// nvcc will use (core/host_compiler), and WSL2.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "check/doctor_input.hpp"

namespace cudaenv::check {

std::vector<Finding> client_findings(const DoctorInput& in);

// The framework distributions of the Python found on `path` (python3, then
// python), with their versions: ("torch", "2.11.0+cu130"), with torch's build
// tag even where its metadata has none (a wheel from PyPI). Empty without a Python.
std::vector<std::pair<std::string, std::string>> installed_frameworks(const std::string& path,
                                                                     std::chrono::milliseconds timeout);

// One framework's finding from its distribution name and version (exposed for tests).
Finding framework_finding(const std::string& dist, const std::string& version, const DoctorInput& in);

// The host compiler nvcc runs for `cuda` under `env` (doctor: the shell's;
// check: the environment `use` gives the pair), as topic/step "host_compiler".
Finding host_compiler_finding(const Version& cuda, const std::string& spec, const EnvReader& env, bool windows);

}  // namespace cudaenv::check
