#pragma once
// The loaded NVIDIA kernel module, as Linux reports it without starting a
// process: /proc/driver/nvidia/version, else /sys/module/nvidia/version.
// Read by the machine's GPU record (gpu/machine), check, doctor, trace and
// the node key of a shared store's checks (store/node_checks). nvidia-smi's
// banner is nvidia/driver's. Every text here is scanned with bounded loops,
// never a backtracking matcher: it comes from the kernel or another program.
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "platform/platform.hpp"

namespace cudaenv::platform {

// A driver version as `--driver` takes it: 1 to 4 dot-separated fields of
// 1 to 9 digits ("580.159.04", "535.104", "560"), at most 32 characters.
bool is_driver_version(std::string_view text);
// The driver version that starts `text` after any blanks, ending at a blank,
// '|' or the end: "" when there is none or it is not one (too long, empty
// fields). Reads at most 64 bytes of `text`.
std::string driver_version_at(std::string_view text);

// "580.159.04" from /proc/driver/nvidia/version's text: "NVRM version: NVIDIA
// UNIX x86_64 Kernel Module  580.159.04 ..." or, for the open modules, "...
// Open Kernel Module for x86_64  580.95.05 ..."; nullopt when absent.
std::optional<std::string> parse_proc_driver_version(const std::string& text);
// "580.159.04" from /sys/module/nvidia/version (the version alone on a line).
std::optional<std::string> parse_sys_module_version(const std::string& text);
// The loaded kernel module's version (/proc, then /sys); nullopt on Windows or without a driver.
std::optional<std::string> kernel_driver_version();
// The models of the GPUs the kernel module lists (/proc/driver/nvidia/gpus/*/information,
// its "Model:" lines), without starting a process; nullopt where the OS has no
// such list (Windows: only a driver call tells).
std::optional<std::set<std::string>> kernel_gpu_models();
// Where NVIDIA's driver keeps the JIT-compiled code when CUDA_CACHE_PATH is unset, as a user writes it.
inline constexpr const char* jit_cache_default = is_windows ? "%APPDATA%\\NVIDIA\\ComputeCache" : "~/.nv/ComputeCache";

}  // namespace cudaenv::platform
