#include "gpu/table.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "nvidia/compat.hpp"
#include "util/embedded.hpp"

namespace cudaenv::gpu {

namespace {

Version cc_of(const Arch& a) { return Version({a.major(), a.minor()}); }

}  // namespace

TableVerdict table_cuda(const Version& cuda, const Arch& gpu) {
    TableVerdict v;
    const auto* row = nvidia::GpuArchs::get().cuda_archs(cuda);
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

TableVerdict table_cudnn(const Version& cudnn, const Arch& gpu, const std::optional<Version>& cuda) {
    TableVerdict v;
    auto s = nvidia::Compat::get().cudnn(cudnn);
    if (!s.row) return v;
    auto cc_range = s.row->cc_for(cuda);
    if (!cc_range) return v;
    v.source = s.row->source;
    v.unconfirmed = !s.confirmed();
    const auto cc = cc_of(gpu);
    v.why = "cuDNN " + cudnn.prefix(2).str() + (cuda && !s.row->cc_with.empty() ? " for CUDA " + cuda->prefix(2).str() : "") +
            " supports compute capability " + cc_range->str() +
            (s.exact ? "" : " (judged from cuDNN " + s.row->versions.str() + "'s row)");
    v.runs = cc_range->contains(cc) ? Runs::native : Runs::no;
    if (v.runs == Runs::no) {
        v.why += ", not " + gpu.cc();
        // A build for a newer CUDA that would run it (Blackwell: CUDA 12.8+).
        for (const auto& [range, with] : s.row->cc_with)
            if (with.contains(cc) && (!cuda || !range.contains(*cuda))) {
                v.why += " (its builds for CUDA " + range.str() + " support " + with.str() + ")";
                break;
            }
        v.why += nvidia::unconfirmed_note(s);
    }
    return v;
}

std::string tables_hash() {
    static const std::string hash = [] {
        uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the three files: cheap next to parsing them
        for (const char* name : {"gpu_archs.toml", "compat.toml", "drivers.toml"})
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
    const auto& c = nvidia::Compat::get();
    // The oldest driver that runs the release at all: its major's floor (minor-version compatibility).
    if (const auto* floor = nvidia::Drivers::get().floor(cuda.major())) {
        n.min_driver_linux = floor->on_linux;
        n.min_driver_windows = floor->on_windows;
        n.sources.push_back(floor->source);
    }
    if (const auto* row = nvidia::GpuArchs::get().cuda_archs(cuda)) {
        n.cc_lo = row->sass_lo;
        n.cc_hi = row->sass_hi;
        n.ptx = row->ptx;
        n.sources.push_back(row->source);
    }
    if (cudnn) {
        auto s = c.cudnn(*cudnn);
        if (auto cc = s.row ? s.row->cc_for(cuda) : std::nullopt) {
            if (n.cc_lo.empty() || n.cc_lo < cc->lo) n.cc_lo = cc->lo;
            if (n.cc_hi.empty() || cc->hi < n.cc_hi) n.cc_hi = cc->hi;
            n.sources.push_back(s.row->source);
        }
    }
    return n;
}

}  // namespace cudaenv::gpu
