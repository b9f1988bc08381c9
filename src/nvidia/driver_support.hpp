#pragma once
// Whether a driver runs a CUDA release, decided in this one place (drivers.toml
// through nvidia/compat): check's gpu step, doctor's driver and
// forward_compat rows, trace, and every command that judges a pair (through
// gpu/pair_code's judge_pair: list, install, lock, sync, mirror create, use,
// exec, the hook, the shims) ask here, so a driver gets the same words
// everywhere.
//
// NVIDIA's rules (docs/gpu.md, "The driver"): a driver at or above a
// release's own minimum runs all of it; an older one of at least the major's
// floor runs it through minor-version compatibility, except PTX newer than
// the driver (no JIT of it); below the floor, CUDA calls fail with
// cudaErrorInsufficientDriver (35) unless forward compatibility stands in.
#include <string>

#include "core/version.hpp"

namespace cudaenv::nvidia {

enum class DriverFit {
    runs,          // at or above the release's own minimum
    minor_compat,  // at or above the major's floor only: no JIT of newer PTX
    too_old,       // below the major's floor: cudaErrorInsufficientDriver
    unknown,       // no driver known, or the table cannot tell
};
const char* fit_name(DriverFit f);  // "runs", "minor-version compatibility", "too old", "unknown"

struct DriverJudgement {
    DriverFit fit = DriverFit::unknown;
    std::string driver;      // as judged ("470.256.02"); "" unknown
    std::string runs_up_to;  // "11.4", "13.1 or newer"; "" unknown
    std::string needs;       // the release's own minimum ("560.28.03"); "" unknown
    std::string floor;       // its major's floor ("525.60.13"); "" unknown
    std::string source;      // the rows decided by
    // One clause: "driver 470.256.02 runs CUDA ≤ 11.4; 12.6 needs ≥ 525.60.13".
    std::string why;
};

// The newest CUDA release `driver` runs natively on that OS ("12.2" for
// 535.104.05): the newest release whose minimum it meets, by major.minor.
// "13.1 or newer" when it is newer than every row (its branch is not in the
// table, so the newest it runs cannot be told); "" when it runs no release
// of the table, or is not a version.
std::string newest_cuda_for(const std::string& driver, bool windows);

// The driver against a CUDA release (12.6.3; 12.6 means its GA). `driver_cuda`:
// the newest CUDA the driver says it runs ("13.0", from cuDriverGetVersion or
// nvidia-smi), which wins over the table where given.
DriverJudgement judge_driver(const std::string& driver, const Version& cuda, bool windows,
                             const std::string& driver_cuda = "");

}  // namespace cudaenv::nvidia
