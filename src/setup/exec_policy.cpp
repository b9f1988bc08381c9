#include "setup/exec_policy.hpp"

#include <array>
#include <vector>

#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv {

PolicyScopes parse_policy_scopes(std::string_view output) {
    PolicyScopes out;
    for (auto line : str::split(output, '\n')) {
        auto l = std::string(str::trim(line));
        auto eq = l.find('=');
        if (eq == std::string::npos || eq == 0) continue;
        out[l.substr(0, eq)] = l.substr(eq + 1);
    }
    return out;
}

PolicyVerdict judge_execution_policy(const std::optional<PolicyScopes>& scopes, std::string_view edition) {
    PolicyVerdict v;
    std::string ed(edition);
    if (!scopes || scopes->empty()) {
        v.summary = "could not ask " + ed + " for its execution policy";
        v.advice = "if the profile does not run (\"running scripts is disabled on this system\"), run `" +
                   std::string(policy_fix) + "` in " + ed;
        return v;
    }
    auto get = [&](const std::string& scope) {
        auto it = scopes->find(scope);
        return it == scopes->end() ? std::string("Undefined") : it->second;
    };
    // Precedence: MachinePolicy, UserPolicy, Process, CurrentUser, LocalMachine.
    // A new shell does not inherit this process's Process scope unless it
    // inherits PSExecutionPolicyPreference, so skip it and use what is left.
    static constexpr std::array<const char*, 4> order = {"MachinePolicy", "UserPolicy", "CurrentUser", "LocalMachine"};
    std::string scope_set;
    for (const char* s : order) {
        auto p = get(s);
        if (p != "Undefined" && !p.empty()) {
            v.effective = p;
            scope_set = s;
            break;
        }
    }
    if (v.effective.empty()) {
        // Nothing set: the edition's default, which Get-ExecutionPolicy reports
        // (Restricted on client editions, RemoteSigned on servers) unless the
        // Process scope hides it.
        auto eff = get("Effective");
        v.effective = get("Process") == "Undefined" && eff != "Undefined" && !eff.empty() ? eff : "Restricted";
    }
    auto p = str::to_lower_ascii(v.effective);
    if (p == "remotesigned" || p == "unrestricted" || p == "bypass") {
        v.state = PolicyVerdict::State::runs;
        v.summary = ed + " runs profiles (execution policy " + v.effective + ")";
        return v;
    }
    v.state = PolicyVerdict::State::blocked;
    v.group_policy = scope_set == "MachinePolicy" || scope_set == "UserPolicy";
    v.summary = ed + "'s execution policy is " + v.effective +
                (scope_set.empty() ? std::string(" (the default)") : " (scope " + scope_set + ")") +
                ": it runs no profile, so cudaenv's PowerShell integration will not load";
    if (v.group_policy)
        v.advice = "the policy is set by Group Policy, which `Set-ExecutionPolicy` cannot override; ask your "
                   "administrator for RemoteSigned, or put the shims folder first on PATH and use cmd";
    else
        v.advice = "run `" + std::string(policy_fix) + "` in " + ed + " (no admin rights needed), then open a new " + ed;
    return v;
}

std::optional<PolicyScopes> query_execution_policy(const std::string& program) {
    auto path = platform::get_env("PATH");
    if (!path) return std::nullopt;
    auto found = platform::find_on_path(program, *path);
    if (!found) return std::nullopt;
    const std::string script =
        "foreach ($s in 'MachinePolicy','UserPolicy','Process','CurrentUser','LocalMachine') "
        "{ \"$s=$(Get-ExecutionPolicy -Scope $s)\" }; \"Effective=$(Get-ExecutionPolicy)\"";
    auto r = platform::run_process({*found, "-NoLogo", "-NoProfile", "-NonInteractive", "-Command", script},
                                   platform::environment(), std::chrono::seconds(30));
    if (!r.started || r.timed_out || r.exit_code != 0) return std::nullopt;
    auto scopes = parse_policy_scopes(r.out);
    if (scopes.empty()) return std::nullopt;
    return scopes;
}

void require_profiles_run(std::ostream& out) {
    if (!platform::has_execution_policy) return;
    std::vector<std::string> problems, advice;
    for (auto [program, edition] : {std::pair{"pwsh.exe", "PowerShell 7"}, std::pair{"powershell.exe", "Windows PowerShell 5.1"}}) {
        auto scopes = query_execution_policy(program);
        if (!scopes && std::string(program) == "pwsh.exe") continue;  // PowerShell 7 is optional
        auto v = judge_execution_policy(scopes, edition);
        if (v.state == PolicyVerdict::State::blocked) {
            problems.push_back(v.summary);
            advice.push_back(v.advice);
        } else if (v.state == PolicyVerdict::State::unknown) {
            out << "note: " << v.summary << "; " << v.advice << "\n";
        }
    }
    if (!problems.empty())
        throw Error(str::join(problems, "; "),
                    str::join(advice, "; ") + " (the profile is written; `cudaenv setup pwsh --undo` takes it back)");
}

}  // namespace cudaenv
