#include "platform/trust.hpp"

#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv::platform {

namespace fs = std::filesystem;

namespace {

std::string sid_text(PSID sid) {
    LPWSTR w = nullptr;
    if (!ConvertSidToStringSidW(sid, &w)) return "an unknown account";
    std::wstring ws(w);
    LocalFree(w);
    return fsx::to_utf8(fs::path(ws));
}

// The accounts a system store may belong to: SYSTEM, Administrators, TrustedInstaller.
bool admin_sid(PSID sid) {
    return IsWellKnownSid(sid, WinLocalSystemSid) || IsWellKnownSid(sid, WinBuiltinAdministratorsSid) ||
           sid_text(sid) == "S-1-5-80-956008885-3418522649-1831038044-1853292631-2271478464";
}

// A name for messages; well-known groups by name, anyone else by SID.
std::string account(PSID sid) {
    struct Known {
        WELL_KNOWN_SID_TYPE type;
        const char* name;
    };
    static constexpr Known known[] = {{WinWorldSid, "Everyone"},
                                      {WinAuthenticatedUserSid, "NT AUTHORITY\\Authenticated Users"},
                                      {WinBuiltinUsersSid, "BUILTIN\\Users"},
                                      {WinInteractiveSid, "NT AUTHORITY\\INTERACTIVE"},
                                      {WinLocalSystemSid, "NT AUTHORITY\\SYSTEM"},
                                      {WinBuiltinAdministratorsSid, "BUILTIN\\Administrators"}};
    for (const auto& k : known)
        if (IsWellKnownSid(sid, k.type)) return k.name;
    return sid_text(sid);
}

bool is_me(PSID sid) {
    HANDLE token = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return false;
    alignas(TOKEN_USER) char buf[256];
    DWORD n = 0;
    bool me = GetTokenInformation(token, TokenUser, buf, sizeof buf, &n) &&
              EqualSid(reinterpret_cast<TOKEN_USER*>(buf)->User.Sid, sid);
    CloseHandle(token);
    return me;
}

// Any right that changes the folder, what is in it, or who may do so.
constexpr ACCESS_MASK change_rights = FILE_WRITE_DATA | FILE_APPEND_DATA | FILE_WRITE_EA | FILE_WRITE_ATTRIBUTES |
                                      FILE_DELETE_CHILD | DELETE | WRITE_DAC | WRITE_OWNER | GENERIC_WRITE |
                                      GENERIC_ALL;

}  // namespace

PathTrust trust_of_descriptor(void* descriptor) {
    PathTrust t;
    auto* sd = static_cast<PSECURITY_DESCRIPTOR>(descriptor);
    PSID owner = nullptr;
    BOOL defaulted = FALSE;
    if (!GetSecurityDescriptorOwner(sd, &owner, &defaulted) || !owner) return t;
    t.exists = true;
    t.owner = account(owner);
    t.owner_id = sid_text(owner);
    t.owner_admin = admin_sid(owner);
    t.owner_is_me = is_me(owner);
    BOOL present = FALSE;
    PACL dacl = nullptr;
    if (!GetSecurityDescriptorDacl(sd, &present, &dacl, &defaulted)) return t;
    if (!present || !dacl) {
        t.writers.push_back("Everyone (it has no access list)");
        return t;
    }
    for (DWORD i = 0; i < dacl->AceCount; ++i) {
        void* ace = nullptr;
        if (!GetAce(dacl, i, &ace)) continue;
        auto* header = static_cast<ACE_HEADER*>(ace);
        // Entries that only pass down to new children do not apply to this folder.
        if (header->AceType != ACCESS_ALLOWED_ACE_TYPE || (header->AceFlags & INHERIT_ONLY_ACE)) continue;
        auto* allowed = static_cast<ACCESS_ALLOWED_ACE*>(ace);
        if (!(allowed->Mask & change_rights)) continue;
        PSID sid = &allowed->SidStart;
        if (admin_sid(sid) || EqualSid(sid, owner)) continue;
        auto name = account(sid);
        bool seen = false;
        for (const auto& w : t.writers) seen = seen || w == name;
        if (!seen) t.writers.push_back(name);
    }
    return t;
}

bool running_as_admin() {
    alignas(SID) BYTE sid[SECURITY_MAX_SID_SIZE];
    DWORD size = sizeof sid;
    BOOL member = FALSE;
    return CreateWellKnownSid(WinBuiltinAdministratorsSid, nullptr, sid, &size) &&
           CheckTokenMembership(nullptr, sid, &member) && member;
}

PathTrust path_trust(const fs::path& p) {
    PSECURITY_DESCRIPTOR sd = nullptr;
    if (GetNamedSecurityInfoW(p.c_str(), SE_FILE_OBJECT, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                              nullptr, nullptr, nullptr, nullptr, &sd) != ERROR_SUCCESS)
        return {};
    auto t = trust_of_descriptor(sd);
    LocalFree(sd);
    return t;
}

void create_admin_dir(const fs::path& p) {
    std::error_code ec;
    if (p.has_parent_path()) fs::create_directories(p.parent_path(), ec);
    // Owned by Administrators, its own list (P: nothing inherited from
    // %ProgramData%, which lets every user add files): SYSTEM and
    // Administrators full control, Users read and run, for it and below.
    PSECURITY_DESCRIPTOR sd = nullptr;
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(
            L"O:BAD:P(A;OICI;FA;;;SY)(A;OICI;FA;;;BA)(A;OICI;0x1200a9;;;BU)", SDDL_REVISION_1, &sd, nullptr))
        throw Error("cannot make the access list of '" + fsx::to_utf8(p) + "' (Windows error " +
                    std::to_string(GetLastError()) + ")");
    SECURITY_ATTRIBUTES sa{sizeof sa, sd, FALSE};
    BOOL made = CreateDirectoryW(p.c_str(), &sa);
    DWORD err = made ? 0 : GetLastError();
    LocalFree(sd);
    if (made || (err == ERROR_ALREADY_EXISTS && fsx::is_dir(p))) return;
    throw Error("cannot create '" + fsx::to_utf8(p) + "' (Windows error " + std::to_string(err) + ")",
                err == ERROR_INVALID_OWNER ? "only an administrator can create the system store" : "");
}

void keep_from_others() {}  // what is made inherits the store folder's list (create_admin_dir)

}  // namespace cudaenv::platform
