#pragma once
// doctor's findings about the clients of a pair: each framework in the active
// Python against the compatibility data (core/frameworks), the host compiler
// nvcc will use (core/host_compiler), and WSL2.
#include <string>
#include <vector>

#include "check/doctor.hpp"

namespace cudaenv::check {

std::vector<Finding> client_findings(const DoctorInput& in);

// One framework's finding from its distribution name and version (exposed for tests).
Finding framework_finding(const std::string& dist, const std::string& version, const DoctorInput& in);

// The host compiler nvcc runs for `cuda` under `env` (doctor: the shell's;
// check: the environment `use` gives the pair), as topic/step "host_compiler".
Finding host_compiler_finding(const Version& cuda, const std::string& spec, const EnvReader& env, bool windows);

}  // namespace cudaenv::check
