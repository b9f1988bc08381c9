#pragma once
// doctor's findings about the clients of a pair: each framework in the active
// Python against the compatibility data (core/frameworks), and WSL2.
#include <string>
#include <vector>

#include "check/doctor.hpp"

namespace cudaenv::check {

std::vector<Finding> client_findings(const DoctorInput& in);

// One framework's finding from its distribution name and version (exposed for tests).
Finding framework_finding(const std::string& dist, const std::string& version, const DoctorInput& in);

}  // namespace cudaenv::check
