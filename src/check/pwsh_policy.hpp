#pragma once
// doctor's view of PowerShell's execution policy (setup/exec_policy): under
// Restricted or AllSigned no profile runs, so cudaenv's PowerShell
// integration and cudaenv.ps1 cannot load.
#include "check/doctor.hpp"

namespace cudaenv::check {

// Asks Windows PowerShell 5.1 and PowerShell 7 (when on PATH) for their
// policies. Windows only: elsewhere PowerShell has no policy that stops scripts.
Finding pwsh_policy_finding();

}  // namespace cudaenv::check
