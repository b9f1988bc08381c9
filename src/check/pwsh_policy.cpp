#include "check/pwsh_policy.hpp"

#include "setup/exec_policy.hpp"

namespace cudaenv::check {

Finding pwsh_policy_finding() {
    Finding f{"powershell", Status::ok, "", "", nlohmann::json::object()};
    std::vector<std::string> summaries, advice;
    bool asked = false;
    for (auto [program, edition] : {std::pair{"powershell.exe", "Windows PowerShell 5.1"}, std::pair{"pwsh.exe", "PowerShell 7"}}) {
        auto scopes = query_execution_policy(program);
        if (!scopes) continue;
        asked = true;
        auto v = judge_execution_policy(scopes, edition);
        f.details[program] = {{"effective", v.effective}, {"runs_profiles", v.state == PolicyVerdict::State::runs},
                              {"group_policy", v.group_policy}};
        summaries.push_back(v.summary);
        if (v.state == PolicyVerdict::State::blocked) {
            f.status = Status::warn;
            advice.push_back(v.advice);
        }
    }
    if (!asked) {
        auto v = judge_execution_policy(std::nullopt, "PowerShell");
        f.status = Status::skip;
        f.summary = v.summary;
        f.advice = v.advice;
        return f;
    }
    for (size_t i = 0; i < summaries.size(); ++i) f.summary += (i ? "; " : "") + summaries[i];
    for (size_t i = 0; i < advice.size(); ++i) f.advice += (i ? "; " : "") + advice[i];
    return f;
}

}  // namespace cudaenv::check
