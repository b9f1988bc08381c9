#pragma once
// The NVIDIA driver as the system reports it, apart from what the CUDA
// runtime says: the kernel module's version files on Linux and nvidia-smi's
// banner, in both its wordings. Used by `check` (step gpu), `doctor` and the
// machine's GPU record (gpu/machine).
#include <optional>
#include <string>
#include <utility>

namespace cudaenv::check {

// "580.159.04" from /proc/driver/nvidia/version's text
// ("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04 ..."); nullopt when absent.
std::optional<std::string> parse_proc_driver_version(const std::string& text);
// "580.159.04" from /sys/module/nvidia/version (the version alone on a line).
std::optional<std::string> parse_sys_module_version(const std::string& text);
// The loaded kernel module's version on Linux (/proc, then /sys); nullopt elsewhere or without a driver.
std::optional<std::string> kernel_driver_version();

// Reads nvidia-smi's banner: {"580.159.04", "13.0"}; empty strings when
// absent. Drivers before R610 print "Driver Version: ... CUDA Version: ...",
// R610 and later "KMD Version: ... CUDA UMD Version: ..." (the driver's kernel
// module and the newest CUDA its user-mode driver supports): both are read.
std::pair<std::string, std::string> parse_nvidia_smi(const std::string& text);

}  // namespace cudaenv::check
