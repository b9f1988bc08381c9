#pragma once
// WSL2: Linux processes under Windows. The NVIDIA driver reaches them through
// /usr/lib/wsl/lib; Windows toolkits and cuDNNs on the drive mounts
// (/mnt/c/...) are DLLs that a Linux process cannot load.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/activation.hpp"
#include "core/found.hpp"

namespace cudaenv {

struct WslInfo {
    bool wsl = false;
    std::string evidence;          // "WSL_DISTRO_NAME=Ubuntu", "kernel 5.15.153.1-microsoft-standard-WSL2"
    std::string mount_root = "/mnt";
};

// From WSL_DISTRO_NAME and the kernel release (/proc/sys/kernel/osrelease).
// Tests inject both: the variable, and CUDAENV_OSRELEASE_FILE /
// CUDAENV_WSL_MOUNT_ROOT for the release file and the drive mounts' folder.
WslInfo detect_wsl(const EnvReader& env);
WslInfo detect_wsl(const std::optional<std::string>& distro_name, const std::optional<std::string>& kernel_release);

// True for a folder on a Windows drive mount: <mount_root>/<letter>/...
bool on_windows_drive(const std::filesystem::path& p, const WslInfo& wsl);

struct Skipped {
    Found found;
    std::string reason;
};

// Under WSL, takes out of `found` what lies on a Windows drive mount (Windows
// toolkits and cuDNNs) and returns it with the reason.
std::vector<Skipped> skip_windows_installs(std::vector<Found>& found, const WslInfo& wsl);

}  // namespace cudaenv
