#pragma once
// PowerShell's execution policy decides whether a profile runs at all: on
// Windows client editions the default (Restricted) stops every script, the
// profile `cudaenv setup pwsh` writes and the session shim cudaenv.ps1
// included (docs/setup.md). The rules are pure; the policies are read from
// the real PowerShell (query_execution_policy) or given by a test.
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace cudaenv {

// Policy per scope, as Get-ExecutionPolicy -Scope names them: MachinePolicy,
// UserPolicy (both Group Policy), Process, CurrentUser, LocalMachine, and
// "Effective" (Get-ExecutionPolicy without a scope).
using PolicyScopes = std::map<std::string, std::string>;

// Reads "Scope=Policy" lines (what query_execution_policy's script prints).
PolicyScopes parse_policy_scopes(std::string_view output);

struct PolicyVerdict {
    enum class State { runs, blocked, unknown } state = State::unknown;
    std::string effective;   // the policy a new PowerShell starts with ("" when unknown)
    bool group_policy = false;  // set by Group Policy: Set-ExecutionPolicy cannot change it
    std::string summary;     // one line
    std::string advice;      // what to do; "" when nothing
};

// Whether a new `edition` ("PowerShell 7", "Windows PowerShell 5.1") runs the
// profile: a policy of this process only (Process scope) does not count.
// nullopt scopes: the policy could not be read.
PolicyVerdict judge_execution_policy(const std::optional<PolicyScopes>& scopes, std::string_view edition);

inline constexpr std::string_view policy_fix = "Set-ExecutionPolicy -Scope CurrentUser RemoteSigned";

// The policies of the PowerShell `program` (pwsh.exe, powershell.exe) found
// on PATH, read by running it; nullopt when it is not there or does not answer.
std::optional<PolicyScopes> query_execution_policy(const std::string& program);

// After `setup` wrote a PowerShell profile, instead of claiming success:
// throws Error naming each edition whose policy stops that profile (with the
// fix), and writes a note to `out` for one whose policy could not be read.
// Windows only (elsewhere PowerShell has no policy that stops scripts).
void require_profiles_run(std::ostream& out);

}  // namespace cudaenv
