#include "core/wsl.hpp"

#include <algorithm>
#include <cctype>

#include "platform/platform.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    return s;
}

}  // namespace

WslInfo detect_wsl(const std::optional<std::string>& distro_name, const std::optional<std::string>& kernel_release) {
    WslInfo w;
    if (distro_name && !distro_name->empty()) {
        w.wsl = true;
        w.evidence = "WSL_DISTRO_NAME=" + *distro_name;
    } else if (kernel_release && lower(*kernel_release).find("microsoft") != std::string::npos) {
        // WSL1 and WSL2 kernels: "4.4.0-19041-Microsoft", "5.15.153.1-microsoft-standard-WSL2"
        w.wsl = true;
        w.evidence = "kernel " + trim(*kernel_release);
    }
    return w;
}

WslInfo detect_wsl(const EnvReader& env) {
    if (!platform::kernel_release_file) return {};  // not a Linux program: never inside WSL
    auto file = env("CUDAENV_OSRELEASE_FILE").value_or(platform::kernel_release_file);
    auto w = detect_wsl(env("WSL_DISTRO_NAME"), fsx::read_file(fsx::from_utf8(file), 4096));
    if (auto m = env("CUDAENV_WSL_MOUNT_ROOT"); m && !m->empty()) w.mount_root = *m;
    return w;
}

bool on_windows_drive(const std::filesystem::path& p, const WslInfo& wsl) {
    // The generic form: a WSL path is a Linux path, whichever OS runs this.
    auto u8 = p.lexically_normal().generic_u8string();
    std::string s(reinterpret_cast<const char*>(u8.data()), u8.size());
    auto root = wsl.mount_root;
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    if (!s.starts_with(root + "/")) return false;
    auto rest = s.substr(root.size() + 1);
    return rest.size() >= 1 && std::isalpha(static_cast<unsigned char>(rest[0])) && (rest.size() == 1 || rest[1] == '/');
}

std::vector<Skipped> skip_windows_installs(std::vector<Found>& found, const WslInfo& wsl) {
    std::vector<Skipped> out;
    if (!wsl.wsl) return out;
    std::vector<Found> keep;
    for (auto& f : found) {
        if (on_windows_drive(f.path, wsl)) {
            out.push_back({f, std::string("a Windows ") + (f.kind == Found::Kind::toolkit ? "toolkit" : "cuDNN") +
                                  " on a Windows drive: Linux programs under WSL cannot load its DLLs; install a Linux one inside WSL"});
        } else {
            keep.push_back(std::move(f));
        }
    }
    found = std::move(keep);
    return out;
}

}  // namespace cudaenv
