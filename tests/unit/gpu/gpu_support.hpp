#pragma once
// Helpers shared by the tests of src/gpu: architectures and a machine planned
// for given GPUs (as --gpu makes one).
#include <vector>

#include "gpu/machine.hpp"

namespace testsupport {

inline cudaenv::gpu::Arch sm(int n, bool a = false) { return cudaenv::gpu::Arch{n, a}; }

inline cudaenv::gpu::Machine planned(std::vector<int> sms) {
    cudaenv::gpu::Machine m;
    int i = 0;
    for (int s : sms) m.gpus.push_back({i++, "", sm(s)});
    m.gpu_override = true;
    m.gpu_source = "--gpu";
    return m;
}

}  // namespace testsupport
