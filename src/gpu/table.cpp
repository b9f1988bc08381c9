#include "gpu/table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "check/compat.hpp"
#include "util/embedded.hpp"

namespace cudaenv::gpu {

namespace {

Version cc_of(const Arch& a) { return Version({a.major(), a.minor()}); }

}  // namespace

TableVerdict table_cuda(const Version& cuda, const Arch& gpu) {
    TableVerdict v;
    const auto* row = check::GpuArchs::get().cuda_archs(cuda);
    if (!row) return v;
    v.source = row->source;
    v.unconfirmed = row->unconfirmed;
    const auto cc = cc_of(gpu);
    const std::string range = "CUDA " + cuda.prefix(2).str() + "'s libraries carry SASS for compute capability " +
                              row->sass_lo.str() + "-" + row->sass_hi.str() + " and PTX for " + row->ptx.str();
    if (cc < row->sass_lo) {
        v.runs = Runs::no;
        v.why = range + ": nothing for " + gpu.sass_name();
    } else if (gpu.major() <= row->sass_hi.major()) {
        v.runs = Runs::native;
        v.why = range;
    } else if (row->ptx <= cc) {
        v.runs = Runs::jit;
        v.why = range + ": " + gpu.sass_name() + " only through PTX JIT";
    } else {
        v.runs = Runs::no;
        v.why = range + ": nothing for " + gpu.sass_name();
    }
    return v;
}

TableVerdict table_cudnn(const Version& cudnn, const Arch& gpu) {
    TableVerdict v;
    auto s = check::Compat::get().cudnn(cudnn);
    if (!s.row || !s.row->cc) return v;
    v.source = s.row->source;
    v.unconfirmed = !s.exact;
    const auto cc = cc_of(gpu);
    v.why = "cuDNN " + cudnn.prefix(2).str() + " supports compute capability " + s.row->cc->str() +
            (s.exact ? "" : " (judged from cuDNN " + s.row->versions.str() + "'s row)");
    v.runs = s.row->cc->contains(cc) ? Runs::native : Runs::no;
    if (v.runs == Runs::no) v.why += ", not " + gpu.cc();
    return v;
}

std::string tables_hash() {
    static const std::string hash = [] {
        uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over both files: cheap next to parsing them
        for (const char* name : {"gpu_archs.toml", "compat.toml"})
            for (unsigned char c : embedded::find(name).value_or(""))
                h = (h ^ c) * 0x100000001b3ull;
        char buf[17];
        std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
        return std::string(buf);
    }();
    return hash;
}

PairNeeds pair_needs(const Version& cuda, const std::optional<Version>& cudnn) {
    PairNeeds n;
    const auto& c = check::Compat::get();
    if (const auto* rel = c.cuda_release(cuda)) {
        n.min_driver_linux = rel->min_driver_linux;
        n.min_driver_windows = rel->min_driver_windows;
        n.sources.push_back(rel->source);
    } else if (const auto* fam = c.cuda_family(cuda.major())) {
        n.min_driver_linux = fam->minor_compat_driver_linux;  // any minor of the major runs from this driver on
        n.min_driver_windows = fam->minor_compat_driver_windows;
        n.sources.push_back(fam->source);
    }
    if (const auto* row = check::GpuArchs::get().cuda_archs(cuda)) {
        n.cc_lo = row->sass_lo;
        n.cc_hi = row->sass_hi;
        n.ptx = row->ptx;
        n.sources.push_back(row->source);
    }
    if (cudnn) {
        auto s = c.cudnn(*cudnn);
        if (s.row && s.row->cc) {
            if (n.cc_lo.empty() || n.cc_lo < s.row->cc->lo) n.cc_lo = s.row->cc->lo;
            if (n.cc_hi.empty() || s.row->cc->hi < n.cc_hi) n.cc_hi = s.row->cc->hi;
            n.sources.push_back(s.row->source);
        }
    }
    return n;
}

}  // namespace cudaenv::gpu
