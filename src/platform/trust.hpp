#pragma once
// Who owns a file or folder, and who besides its owner may change it: what
// cudaenv must know before it trusts the shared system store
// (store/store_trust.hpp). POSIX: the owner's uid and the mode's group and
// other write bits. Windows: the owner's SID and the access list's allowed
// entries that grant a change (write, append, add a file or folder, delete,
// change the access list or the owner) to anyone but SYSTEM, Administrators,
// TrustedInstaller and the owner.
#include <filesystem>
#include <string>
#include <vector>

#include "platform/platform.hpp"

namespace cudaenv::platform {

// Who may change a system folder, as messages name it.
inline constexpr const char* admin_name = is_windows ? "an administrator" : "root";
// How its admin makes a folder changeable by administrators only, for hints.
inline constexpr const char* admin_only_advice =
    is_windows ? "let only Administrators change it (icacls), or remove it and let `cudaenv install --system` make it"
               : "make it root's (or the store owner's) and writable by its owner only (chown, chmod go-w)";

struct PathTrust {
    bool exists = false;
    std::string owner;         // for messages: "uid 1000", "root", "BUILTIN\Administrators", a SID
    std::string owner_id;      // compared between paths: a uid or a SID
    bool owner_admin = false;  // root; SYSTEM, Administrators or TrustedInstaller
    bool owner_is_me = false;  // the account running this process
    // Who else may change it, for messages: "its group (mode 0775)",
    // "everyone (mode 0777)", "BUILTIN\Users".
    std::vector<std::string> writers;
};

// What the OS says of `p`, following links (exists = false when it is not there).
PathTrust path_trust(const std::filesystem::path& p);

// Whether this process runs as root (POSIX: effective uid 0) or, on Windows,
// as an administrator (its token holds the Administrators group).
bool running_as_admin();

// Creates the folder `p` (its parents as usual) writable by its owner and
// administrators only, whatever the umask (POSIX: mode 0755) or the access
// list it would inherit (Windows: %ProgramData% lets every user add files to
// a new folder; this one gets its own list, owned by Administrators). Throws
// Error when it cannot.
void create_admin_dir(const std::filesystem::path& p);

// From now on, nothing this process creates is writable by group or others
// (POSIX: the umask gets 022 added; Windows: files inherit the folder's list).
void keep_from_others();

#ifdef _WIN32
// The same from a security descriptor (PSECURITY_DESCRIPTOR), for tests.
PathTrust trust_of_descriptor(void* descriptor);
#endif

}  // namespace cudaenv::platform
