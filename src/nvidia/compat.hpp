#pragma once
// The compatibility tables compiled into the binary, each parsed only by the
// code that reads it: compat.toml (CUDA -> oldest GPU architecture; cuDNN ->
// CUDA versions and GPU architectures; framework pins), gpu_archs.toml (the
// GPU code each CUDA release's libraries carry; forward compatibility per GPU
// class), drivers.toml (the drivers each CUDA release and major needs, per OS).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/version.hpp"

namespace cudaenv::nvidia {

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
    Version cc_min;
    bool cc_unconfirmed = false;
    std::string source;
};

struct CudnnRow {
    VersionRange versions;
    std::vector<VersionRange> cuda;
    std::optional<VersionRange> cc;
    // Builds for these CUDA releases reach other compute capabilities
    // (cuDNN 9.7+: Blackwell only with CUDA 12.8+).
    std::vector<std::pair<VersionRange, VersionRange>> cc_with;
    bool unconfirmed = false;  // warns, never refuses
    std::string confirm;       // what would confirm it
    std::string source;
    // The compute capabilities of the build for `cuda`; without a CUDA release,
    // the widest any of its builds reaches. nullopt: the row says nothing.
    std::optional<VersionRange> cc_for(const std::optional<Version>& release) const;
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
    // Whether the judgement may refuse: an exact row that is not itself unconfirmed.
    bool confirmed() const { return row && exact && !row->unconfirmed; }
};

class Compat {
public:
    // The embedded table (parsed once).
    static const Compat& get();
    // Parses a table's text; throws Error on malformed data.
    static Compat parse(const std::string& text);

    const CudaFamily* cuda_family(int major) const;
    CudnnSupport cudnn(const Version& v) const;
    const std::vector<FrameworkPin>& frameworks() const { return frameworks_; }

    // "" when the table knows no conflict; else one sentence why the pair
    // does not fit (used by `pair` and `check`). `unconfirmed` is set when the
    // judgement rests on a neighbouring row.
    std::string pair_conflict(const Version& cuda, const Version& cudnn, bool* unconfirmed = nullptr) const;

private:
    std::vector<CudaFamily> families_;
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

// The drivers CUDA needs (src/data/drivers.toml), a table of its own: per
// major the floor of minor-version compatibility, per release the driver that
// runs all of it. Decided with in one place, nvidia/driver_support.
struct DriverFloor {
    int major = 0;
    std::string on_linux, on_windows;  // "" where the table leaves it out
    std::string source;
    const std::string& on(bool windows) const { return windows ? on_windows : on_linux; }
};
struct DriverRelease {
    Version cuda;  // 12.6.3
    std::string on_linux, on_windows;
    std::string source;
    const std::string& on(bool windows) const { return windows ? on_windows : on_linux; }
};
class Drivers {
public:
    static const Drivers& get();
    static Drivers parse(const std::string& text);

    const DriverFloor* floor(int major) const;
    // The row for a release: the newest row of its major.minor at or below it
    // (12.6 and 12.6.0 take 12.6.0, 12.6.4 takes 12.6.3); nullptr when its
    // major.minor has none.
    const DriverRelease* release(const Version& cuda) const;
    // Every row, oldest first.
    const std::vector<DriverRelease>& releases() const { return releases_; }

private:
    std::vector<DriverFloor> floors_;
    std::vector<DriverRelease> releases_;
};

// " (...unconfirmed: the cuDNN 9.9.0 support matrix would confirm it)" for a
// judgement that rests on an unconfirmed or a neighbouring row; "" when confirmed.
std::string unconfirmed_note(const CudnnSupport& s);

// Driver version strings ("525.60.13") compared field by field.
int compare_driver(const std::string& a, const std::string& b);

}  // namespace cudaenv::nvidia
