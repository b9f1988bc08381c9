#pragma once
// nvidia-smi's banner, in both its wordings. Used by `check` (step gpu),
// `doctor` and the machine's GPU record (gpu/machine); the kernel module's
// own version files are platform/nvidia_driver's.
#include <string>
#include <utility>

namespace cudaenv::nvidia {

// Reads nvidia-smi's banner: {"580.159.04", "13.0"}; empty strings when
// absent. Drivers before R610 print "Driver Version: ... CUDA Version: ...",
// R610 and later "KMD Version: ... CUDA UMD Version: ..." (the driver's kernel
// module and the newest CUDA its user-mode driver supports): both are read.
std::pair<std::string, std::string> parse_nvidia_smi(const std::string& text);

}  // namespace cudaenv::nvidia
