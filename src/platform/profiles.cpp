#include "platform/profiles.hpp"

#include "platform/platform.hpp"
#include "platform/userenv.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

ProfileEnv current_profile_env() {
    ProfileEnv e;
    e.windows = is_windows;
    if (auto h = get_env(is_windows ? "USERPROFILE" : "HOME"); h && fsx::from_utf8(*h).is_absolute()) {
        e.home = fsx::from_utf8(*h);
        e.documents = documents_dir();
    }
    e.xdg_config_home = get_env("XDG_CONFIG_HOME");
    e.zdotdir = get_env("ZDOTDIR");
    return e;
}

}  // namespace cudaenv::platform
