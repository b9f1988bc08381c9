#pragma once
// cudaenv.lock, beside a project's .cudaenv: the exact pair `cudaenv lock`
// resolved on a mirror and, for each platform it was locked for, every
// archive with its size and sha256 (docs/lock.md). Type, reader and writer of
// the file. The writer's layout is fixed (keys sorted, archives sorted, one
// value per line), so two runs give the same bytes and a change is a small
// diff. Knows no network: `cudaenv sync` reads it before deciding whether
// anything has to be fetched.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudaenv {

// The format this cudaenv writes and the newest it reads.
inline constexpr int kLockFormat = 1;
inline constexpr const char* kLockFileName = "cudaenv.lock";
// The most [[archive]] entries a lock may hold (NVIDIA's default set is about
// 20 per platform, five platforms): each becomes a download and a folder.
inline constexpr size_t kMaxLockArchives = 500;

struct LockedComponent {
    std::string name;     // "CUDA Runtime (cudart)"
    std::string version;  // "12.6.77"
};

struct LockedArchive {
    std::string platform;       // "linux-x86_64"
    std::string product;        // "cuda" or "cudnn": <mirror>/<product>/redist/
    std::string component;      // "cuda_cudart", "cudnn"
    std::string relative_path;  // below <mirror>/<product>/redist/, as the manifest says
    uint64_t size = 0;
    std::string sha256;  // lower-case hex
};

// A library of an adopted pair as found on disk ("cuda/lib64/libcudart.so.12"
// below the toolkit, "cudnn/lib/libcudnn.so.9" below the cuDNN).
struct LockedFile {
    std::string path;
    uint64_t size = 0;
    std::string sha256;
};

// What the pair needs from the machine (gpu::pair_needs, src/gpu/table.hpp); "" = unknown.
struct LockedRequirements {
    std::string driver_linux, driver_windows;
    std::string compute_capability_min, compute_capability_max;
};

struct LockFile {
    int format = kLockFormat;
    std::string spec;                    // the project's spec when it was locked ("12.6+9.8")
    std::string pair;                    // the exact pair ("12.6.3+9.8.0", "12.6.3+none")
    std::string mirror;                  // where it was resolved ("" for an adopted pair); a
                                         // relative folder is relative to the lock's folder
    bool adopted = false;                // folders on disk, not from a mirror: not reproducible by download
    std::vector<std::string> platforms;  // sorted
    std::string cuda_release;            // "12.6.3"
    std::map<std::string, LockedComponent> components;
    std::string cudnn_version;           // "9.8.0.87"; "" = no cuDNN
    std::string cudnn_release;           // "9.8.0": its manifest is redistrib_9.8.0.json
    std::string cudnn_name;
    int cudnn_cuda_major = 0;            // the build's CUDA major ("cuda12")
    LockedRequirements needs;            // [requires]
    std::vector<LockedArchive> archives;  // sorted by platform, product, component
    std::vector<LockedFile> files;        // adopted pairs only, sorted by path

    bool has_platform(const std::string& platform) const;
    // The pair [cuda] and [cudnn] name: "<release>+<x.y.z of the cuDNN>" or "<release>+none".
    std::string pair_of_tables() const;
    // `mirror` as a URL or an absolute folder: a relative folder is taken
    // from the folder of `lock_file`, so the lock works from anywhere.
    std::string mirror_location(const std::filesystem::path& lock_file) const;
    // The archives of one platform, in the order they are listed.
    std::vector<LockedArchive> archives_for(const std::string& platform) const;

    // Throws Error naming `file` (and the line where one is known) for a file
    // that is no lock: merge-conflict markers, a newer format, a damaged
    // entry, a `pair` that is not its [cuda] release and [cudnn] version, an
    // archive listed twice (platform, product and component, or file name),
    // more than kMaxLockArchives. Each says what to do.
    static LockFile parse(const std::string& text, const std::filesystem::path& file);
    static LockFile load(const std::filesystem::path& file);  // throws when it is missing
    // The file's text; deterministic (sorts what it writes).
    std::string to_toml() const;
};

// Where a project's lock lives: beside its version file.
std::filesystem::path lock_path_for(const std::filesystem::path& version_file);

// What a lock at `lock_file` records as its `mirror` for a mirror given as
// `location` (relative to `cwd` when it is a relative folder): a URL or an
// absolute folder as it is, a relative folder relative to the lock's folder
// (with '/'), so that it names the same folder from every folder of the project.
std::string lock_mirror_text(const std::string& location, const std::filesystem::path& cwd,
                             const std::filesystem::path& lock_file);

}  // namespace cudaenv
