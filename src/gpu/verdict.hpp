#pragma once
// Whether GPU code runs on a GPU, by NVIDIA's loading rules (docs/gpu.md):
// SASS for sm_XY runs on every GPU of the same major at or above minor Y
// (sm_80 on 8.6 and 8.9, never on 9.0); arch-specific SASS (sm_90a) on that
// architecture alone; PTX for compute_XY is compiled by the driver (JIT) for
// any GPU at or above X.Y, compute_XYa only for X.Y itself, compute_XYf for
// its family (major X, minor Y and above: compute_100f on 10.0 and 10.3, not
// 12.0); family-specific SASS (sm_100f) loads as plain SASS of its major. An
// architecture the reader could not name (`unknown (0x...)`) runs nowhere it
// can tell.
#include <string>
#include <vector>

#include "gpu/fatbin.hpp"

namespace cudaenv::gpu {

enum class Runs {
    native,   // SASS for this GPU
    jit,      // only PTX the driver compiles at first launch
    no,       // neither: "no kernel image is available for execution on the device"
    no_code,  // the binary carries no GPU code (cudart, a host-only library)
};
const char* runs_name(Runs r);  // "native", "JIT", "no", "-"

struct Verdict {
    Runs runs = Runs::no_code;
    Arch gpu;          // the GPU judged
    Arch by;           // the SASS or PTX that decides (native, jit)
    std::string why;   // one short clause: "sm_86 SASS", "PTX compute_90 (JIT)", "has sm_70-sm_90, compute_90"
};

Verdict judge(const Code& code, const Arch& gpu);

// The worse of two: no < jit < native (no_code counts as native).
Runs worse(Runs a, Runs b);

// "sm_35 sm_50 ... sm_90" / "compute_90": a list as cuobjdump orders it (by number).
std::string sass_list(const Code& code);
std::string ptx_list(const Code& code);

}  // namespace cudaenv::gpu
