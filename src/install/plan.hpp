#pragma once
// Planning before the first byte (docs/install.md, "Plan first, then
// fetch"): a spec, archive files or a lock become a Plan that names every
// archive to fetch with its size and sha256, the folders they become and the
// pin, or an error saying why the pair cannot exist, before anything is
// downloaded or written. Candidate releases are judged in one place,
// judge(); `cudaenv lock` runs the same search on the mirror alone
// (resolve()).
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/spec.hpp"
#include "store/store.hpp"
#include "install/layout.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"

namespace cudaenv::install {

namespace fs = std::filesystem;

// A mirror's releases and manifests, each read once; the mirror is opened
// only when a plan needs it.
class Catalog {
public:
    explicit Catalog(std::string location) : location_(std::move(location)) {}
    const std::string& location() const { return location_; }
    const Mirror& mirror();
    // Newest first; `product` is "cuda" or "cudnn".
    const std::vector<Version>& releases(const std::string& product);
    const Manifest& manifest(const std::string& product, const Version& release);
    // The manifest's bytes as the mirror serves them (what an offline mirror keeps).
    const std::string& manifest_text(const std::string& product, const Version& release);

private:
    std::string location_;
    std::optional<Mirror> mirror_;
    std::map<std::string, std::vector<Version>> releases_;
    std::map<std::string, Manifest> manifests_;  // "<product>/<version>"
    std::map<std::string, std::string> texts_;
};

// One archive to fetch and unpack.
struct ArchiveJob {
    std::string product;    // "cuda" or "cudnn": <mirror>/<product>/redist/
    std::string component;  // "cuda_cudart", "cudnn"
    ComponentInfo info;     // name and version, for version.json
    Artifact artifact;      // platform, relative_path, size, sha256 ("" = not checked)
    fs::path local;         // an archive given on the command line, read where it is
};

struct ToolkitStep {
    std::string release;  // "12.6.3": version.json's cuda.version
    fs::path target;      // toolkits/<release>; components merge into what is there
    std::vector<ArchiveJob> archives;  // in install order: a later file replaces an earlier one
    bool replace = false;  // what is there was installed for another platform: nothing of it is kept
};

struct CudnnStep {
    Version version;  // 9.8.0.87; the folder is cudnn/<x.y.z>_cuda<N>
    int cuda_major = 0;
    fs::path target;
    ArchiveJob archive;
};

struct Plan {
    std::string platform;
    std::string mirror;  // where archives come from ("" when every one is a local file)
    std::vector<ToolkitStep> toolkits;
    std::vector<CudnnStep> cudnns;
    std::optional<std::pair<std::string, std::string>> pin;  // toolkit version -> cuDNN version
    std::vector<std::string> notes;  // what is installed already ("CUDA 12.6.3 is already installed in ...")
    std::string recorded_in;         // the lock the sizes and hashes come from ("" = the manifests)
    bool nothing_to_fetch() const { return toolkits.empty() && cudnns.empty(); }
};

// A candidate pair: a CUDA release and at most one cuDNN release. A null
// manifest stands for one that is installed already.
struct Candidate {
    Version cuda;                  // the release (12.6.3)
    std::optional<Version> cudnn;  // the cuDNN release (9.8.0); nullopt: no cuDNN
    const Manifest* cuda_manifest = nullptr;
    const Manifest* cudnn_manifest = nullptr;
    std::vector<std::string> platforms;
    std::vector<std::string> components;  // asked for (--components); empty = the default set
    // "" when the pair runs on the machine judged for, else why not (gpu/pair_code's judge_pair,
    // through InstallOptions::pair_runs_here); unset: not judged.
    std::function<std::string(const Version& cuda, const std::optional<Version>& cudnn)> runs_here;
};

// THE step where candidate pairs are judged: "" when the candidate fits,
// else why not. The CUDA release has archives for every platform and every
// component asked for; the cuDNN release has a build for this CUDA major on
// every platform; and the pair runs on the machine judged for (its GPUs and
// driver: Candidate::runs_here, the one judgement of gpu/pair_code).
std::string judge(const Candidate& c);

// What a spec resolves to on the mirror alone (`cudaenv lock`): the newest
// pair that judge() accepts for every platform. Throws Error saying why none does.
struct Resolution {
    const Manifest* cuda = nullptr;
    std::vector<std::string> components;  // the default set, over every platform
    const Manifest* cudnn = nullptr;      // nullptr: no cuDNN
};
// A pair's verdict on the machine judged for: "" when it runs (Candidate::runs_here).
using PairFilter = std::function<std::string(const Version& cuda, const std::optional<Version>& cudnn)>;
// Leaves out of a product's releases ("cuda", "cudnn"; newest first) those
// matching `wanted` that cannot run on this machine, or throws naming the
// ones that would (gpu/install_choice; InstallOptions::runs_here).
using ReleaseFilter =
    std::function<void(const std::string& product, std::vector<Version>& releases, const Version& wanted)>;
// Both judgements of a machine (unset: every release and pair may be taken).
struct RunsHere {
    ReleaseFilter releases;
    PairFilter pair;
};

Resolution resolve(Catalog& catalog, const Spec& spec, const std::vector<std::string>& platforms,
                   const RunsHere& runs_here = {});

// `cudaenv install <spec>`: an installed toolkit that matches is used (only
// missing components are added), else the newest release the mirror has
// that `runs_here` keeps (unset: every release); with +<cudnn> the cuDNN
// built for that CUDA major, and the pin.
Plan plan_spec(Store& store, Catalog& catalog, const Spec& spec, const std::vector<std::string>& components,
               const std::string& platform, const RunsHere& runs_here = {});

// `cudaenv install <archive>...`: archives of this platform, grouped into
// toolkits by release (a redistrib_*.json next to them names it) and cuDNNs.
Plan plan_archives(Store& store, const std::vector<fs::path>& archives, const std::string& sha256,
                   const std::string& platform);

// The plan as `install --dry-run` prints it.
void print_plan(const Plan& plan, std::ostream& out);

// "none" or "12.6.3, 12.4.1" for messages.
std::string versions_text(const std::vector<Version>& vs);

}  // namespace cudaenv::install
