#include "platform/trust.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace fs = std::filesystem;

PathTrust path_trust(const fs::path& p) {
    PathTrust t;
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return t;
    t.exists = true;
    t.owner_id = std::to_string(st.st_uid);
    t.owner = st.st_uid == 0 ? "root" : "uid " + t.owner_id;  // no user names: no NSS in a static program
    t.owner_admin = st.st_uid == 0;
    t.owner_is_me = st.st_uid == ::geteuid();
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    if (st.st_mode & S_IWOTH) t.writers.push_back(std::string("everyone (mode ") + mode + ")");
    else if (st.st_mode & S_IWGRP)
        t.writers.push_back("its group, gid " + std::to_string(st.st_gid) + " (mode " + mode + ")");
    return t;
}

bool running_as_admin() { return ::geteuid() == 0; }

void create_admin_dir(const fs::path& p) {
    std::error_code ec;
    if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
    if (::mkdir(p.c_str(), 0755) == 0) {
        ::chmod(p.c_str(), 0755);  // whatever the umask: users read it, only its owner writes
        return;
    }
    if (errno == EEXIST && fsx::is_dir(p)) return;
    throw Error("cannot create '" + fsx::to_utf8(p) + "': " + std::strerror(errno));
}

void keep_from_others() { ::umask(::umask(0) | 022); }

}  // namespace cudaenv::platform
