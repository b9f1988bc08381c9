#pragma once
// doctor's GPU topics: this machine's GPUs against the active pair (native,
// JIT or no, from the pair's own libraries), the driver against the pair
// with forward compatibility (cuda-compat) and errors 803/804, and the GPU
// code of the torch wheel the python on PATH would import.
#include <vector>

#include "check/doctor.hpp"
#include "gpu/machine.hpp"

namespace cudaenv::check {

// `store_root` holds the code cache.
std::vector<Finding> gpu_findings(const DoctorInput& in, const gpu::Machine& m, const std::filesystem::path& store_root);

}  // namespace cudaenv::check
