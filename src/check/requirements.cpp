#include "check/requirements.hpp"

#include "check/compat.hpp"

namespace cudaenv::check {

PairRequirements pair_requirements(const Version& cuda, const std::optional<Version>& cudnn) {
    const auto& table = Compat::get();
    PairRequirements r;
    if (const auto* release = table.cuda_release(cuda)) {
        r.driver_linux = release->min_driver_linux;
        r.driver_windows = release->min_driver_windows;
    } else if (const auto* family = table.cuda_family(cuda.major())) {
        r.driver_linux = family->minor_compat_driver_linux;
        r.driver_windows = family->minor_compat_driver_windows;
    }
    if (const auto* family = table.cuda_family(cuda.major())) r.cc_min = family->cc_min;
    if (cudnn) {
        auto support = table.cudnn(*cudnn);
        if (support.row && support.row->cc) {
            if (r.cc_min.empty() || r.cc_min < support.row->cc->lo) r.cc_min = support.row->cc->lo;
            r.cc_max = support.row->cc->hi;
        }
    }
    return r;
}

}  // namespace cudaenv::check
