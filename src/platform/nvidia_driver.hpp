#pragma once
// The loaded NVIDIA kernel module, as Linux reports it without starting a
// process: /proc/driver/nvidia/version, else /sys/module/nvidia/version.
// Read by the machine's GPU record (gpu/machine), check, doctor, trace and
// the node key of a shared store's checks (store/node_checks). nvidia-smi's
// banner is check/driver's.
#include <optional>
#include <string>

namespace cudaenv::platform {

// "580.159.04" from /proc/driver/nvidia/version's text: "NVRM version: NVIDIA
// UNIX x86_64 Kernel Module  580.159.04 ..." or, for the open modules, "...
// Open Kernel Module for x86_64  580.95.05 ..."; nullopt when absent.
std::optional<std::string> parse_proc_driver_version(const std::string& text);
// "580.159.04" from /sys/module/nvidia/version (the version alone on a line).
std::optional<std::string> parse_sys_module_version(const std::string& text);
// The loaded kernel module's version (/proc, then /sys); nullopt on Windows or without a driver.
std::optional<std::string> kernel_driver_version();

}  // namespace cudaenv::platform
