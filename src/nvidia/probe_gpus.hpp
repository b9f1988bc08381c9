#pragma once
// The machine's GPUs and driver as the driver itself reports them, asked in
// the dynamically linked cudaenv-probe (`cudaenv-probe __gpus`), since
// `cudaenv` is static and never loads a library: the driver API (libcuda.so.1,
// nvcuda.dll; WSL: /usr/lib/wsl/lib) for each GPU's name and compute
// capability, NVML (libnvidia-ml.so.1, nvml.dll) for the driver's version.
// Prints records (util/records) that gpu/machine reads back.
#include <iosfwd>
#include <string>
#include <vector>

namespace cudaenv::nvidia {

struct ProbedGpu {
    int index = 0, major = 0, minor = 0;
    std::string name;
};
struct ProbedMachine {
    std::vector<ProbedGpu> gpus;
    std::string driver;          // NVML's driver version ("580.159.04"), "" unknown
    int driver_cuda = 0;         // cuDriverGetVersion (13000), 0 unknown
    std::string gpu_error;       // why no GPU could be listed ("" when they were)
};

// Asks the driver (in this process: only cudaenv-probe calls it).
ProbedMachine probe_machine();

// The records printed for the parent, and read back there.
std::string encode(const ProbedMachine& m);
ProbedMachine decode_probed(const std::string& text);

}  // namespace cudaenv::nvidia
