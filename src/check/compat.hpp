#pragma once
// The compatibility table (src/data/compat.toml, compiled into the binary):
// CUDA -> minimum driver and oldest GPU architecture; cuDNN -> CUDA versions
// and GPU architectures; framework pins.
#include <optional>
#include <string>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::check {

// An inclusive range of versions compared on their leading fields:
// "12.0-12.6" contains 12.4.1; "11.8" contains only 11.8.x.
struct VersionRange {
    Version lo, hi;
    bool contains(const Version& v) const;
    std::string str() const;
    static std::optional<VersionRange> parse(const std::string& text);
};

struct CudaFamily {
    int major = 0;
    std::string minor_compat_driver_linux, minor_compat_driver_windows;
    // The floor for that OS's driver ("" where the table leaves it out).
    const std::string& minor_compat_driver(bool windows) const {
        return windows ? minor_compat_driver_windows : minor_compat_driver_linux;
    }
    Version cc_min;
    bool cc_unconfirmed = false;
    std::string source;
};

struct CudaRelease {
    Version version;
    std::string min_driver_linux, min_driver_windows;
    const std::string& min_driver(bool windows) const { return windows ? min_driver_windows : min_driver_linux; }
    bool unconfirmed = false;
    std::string source;
};

struct CudnnRow {
    VersionRange versions;
    std::vector<VersionRange> cuda;
    std::optional<VersionRange> cc;
    std::string source;
};

// The GPU architectures the libraries of a range of CUDA releases carry:
// SASS for compute capability sass_lo up to sass_hi (by major: an 8.0 cubin
// runs on 8.6), PTX for `ptx` (the driver JIT-compiles it for newer GPUs).
struct CudaArchRow {
    VersionRange versions;
    Version sass_lo, sass_hi, ptx;
    bool unconfirmed = false;
    std::string source;
};

// Whether a class of GPU (a substring of the name the driver reports) runs
// CUDA forward compatibility (the cuda-compat libraries).
struct ForwardCompatRow {
    std::string match;
    bool supported = false;
    std::string source;
};

struct FrameworkPin {
    std::string name, version, build, platform, note, source;
    Version cuda, cudnn;
    bool unconfirmed = false;
};

// What the table says about one cuDNN release.
struct CudnnSupport {
    const CudnnRow* row = nullptr;
    bool exact = false;  // false: judged by the nearest older row (unconfirmed)
};

class Compat {
public:
    // The embedded table (parsed once).
    static const Compat& get();
    // Parses a table's text; throws Error on malformed data.
    static Compat parse(const std::string& text);

    const CudaFamily* cuda_family(int major) const;
    const CudaRelease* cuda_release(const Version& v) const;
    const std::vector<CudaRelease>& cuda_releases() const { return releases_; }
    CudnnSupport cudnn(const Version& v) const;
    const std::vector<FrameworkPin>& frameworks() const { return frameworks_; }

    // "" when the table knows no conflict; else one sentence why the pair
    // does not fit (used by `pair` and `check`). `unconfirmed` is set when the
    // judgement rests on a neighbouring row.
    std::string pair_conflict(const Version& cuda, const Version& cudnn, bool* unconfirmed = nullptr) const;

private:
    std::vector<CudaFamily> families_;
    std::vector<CudaRelease> releases_;
    std::vector<CudnnRow> cudnn_;
    std::vector<FrameworkPin> frameworks_;
};

// The GPU architecture rows (src/data/gpu_archs.toml), a table of their own:
// judging a pair by them (`list`, for a pair without readable GPU code) parses
// nothing else.
class GpuArchs {
public:
    // The embedded table (parsed once).
    static const GpuArchs& get();
    // Parses a table's text; throws Error on malformed data.
    static GpuArchs parse(const std::string& text);

    // The row for a CUDA release (the newest row at or below it); nullptr when none.
    const CudaArchRow* cuda_archs(const Version& cuda) const;
    // The first forward-compatibility row whose `match` the GPU's name holds; nullptr when none.
    const ForwardCompatRow* forward_compat(const std::string& gpu_name) const;

private:
    std::vector<CudaArchRow> cuda_archs_;
    std::vector<ForwardCompatRow> forward_compat_;
};

// Driver version strings ("525.60.13") compared field by field.
int compare_driver(const std::string& a, const std::string& b);

}  // namespace cudaenv::check
