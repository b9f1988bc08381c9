#include "install/plan.hpp"

#include <algorithm>
#include <functional>
#include <ostream>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

const Mirror& Catalog::mirror() {
    if (!mirror_) mirror_.emplace(location_);
    return *mirror_;
}

const std::vector<Version>& Catalog::releases(const std::string& product) {
    auto it = releases_.find(product);
    if (it == releases_.end()) it = releases_.emplace(product, mirror().releases(product)).first;
    return it->second;
}

const std::string& Catalog::manifest_text(const std::string& product, const Version& release) {
    auto key = product + "/" + release.str();
    auto it = texts_.find(key);
    if (it == texts_.end()) it = texts_.emplace(key, mirror().manifest_text(product, release.str())).first;
    return it->second;
}

const Manifest& Catalog::manifest(const std::string& product, const Version& release) {
    auto key = product + "/" + release.str();
    auto it = manifests_.find(key);
    if (it == manifests_.end()) {
        auto source = mirror().location() + "/" + product + "/redist/redistrib_" + release.str() + ".json";
        it = manifests_.emplace(key, Manifest::parse(manifest_text(product, release), source, release.str(), product)).first;
    }
    return it->second;
}

std::string versions_text(const std::vector<Version>& vs) {
    std::vector<std::string> out;
    for (const auto& v : vs) out.push_back(v.str());
    return out.empty() ? "none" : str::join(out, ", ");
}

namespace {

std::string release_of(const Manifest& m, const Version& fallback) {
    return m.release_label.empty() ? fallback.str() : m.release_label;
}

std::string cuda_majors_built(const Component& c, const std::string& platform) {
    std::vector<std::string> majors;
    for (const auto& a : c.artifacts)
        if (a.platform == platform && a.cuda_major) majors.push_back(std::to_string(a.cuda_major));
    std::sort(majors.begin(), majors.end());
    return majors.empty() ? "no build for " + platform : "builds for CUDA " + str::join(majors, ", ");
}

std::string judge_toolkit(const Manifest& m, const std::string& release, const std::string& platform,
                          const std::vector<std::string>& components) {
    if (components.empty()) {
        auto it = m.components.find("cuda_cudart");
        if (it == m.components.end() || !it->second.find(platform))
            return "CUDA " + release + " has no CUDA runtime (cuda_cudart) for " + platform;
        return {};
    }
    for (const auto& key : components) {
        auto it = m.components.find(key);
        if (it != m.components.end() && it->second.find(platform)) continue;
        std::vector<std::string> valid;
        for (const auto& [k, c] : m.components)
            if (c.find(platform)) valid.push_back(k);
        return "CUDA " + release + " has no component '" + key + "' for " + platform + " (components: " +
               str::join(valid, ", ") + ")";
    }
    return {};
}

}  // namespace

std::string judge(const Candidate& c) {
    for (const auto& platform : c.platforms) {
        if (c.cuda_manifest) {
            auto why = judge_toolkit(*c.cuda_manifest, release_of(*c.cuda_manifest, c.cuda), platform, c.components);
            if (!why.empty()) return why;
        }
        if (c.cudnn_manifest) {
            auto it = c.cudnn_manifest->components.find("cudnn");
            if (it == c.cudnn_manifest->components.end())
                return "the cuDNN " + c.cudnn_manifest->release_label + " manifest has no cudnn component";
            if (!it->second.find(platform, c.cuda.major()))
                return "cuDNN " + c.cudnn_manifest->release_label + " has no build for CUDA " +
                       std::to_string(c.cuda.major()) + " on " + platform + " (it has " +
                       cuda_majors_built(it->second, platform) + ")";
        }
    }
    if (c.runs_here)
        if (auto why = c.runs_here(c.cuda, c.cudnn); !why.empty()) return "cannot run here: " + why;
    return {};
}

namespace {

// A release to try: from the mirror, or installed already (no manifest needed).
struct Option {
    Version version;
    bool installed = false;
};

struct Found {
    Version cuda;
    const Manifest* cuda_manifest = nullptr;
    std::optional<Version> cudnn;
    const Manifest* cudnn_manifest = nullptr;
};

// Which cuDNN a search takes: none, one that must be found, or the newest
// that fits and else none (a spec without +<cudnn>, as activation picks).
enum class CudnnWanted { none, required, if_any };

// Tries the pairs newest first (toolkits, then for each the cuDNNs for its
// major, then with `if_any` the toolkit alone) and returns the first that
// judge() accepts.
Found search(Catalog& catalog, const Spec& spec, const std::vector<Option>& toolkits, CudnnWanted wanted,
             const std::function<std::vector<Option>(int)>& cudnns_for, const std::vector<std::string>& platforms,
             const std::vector<std::string>& components, const PairFilter& runs_here) {
    std::vector<std::string> rejected;
    const bool with_cudnn = wanted != CudnnWanted::none;
    for (const auto& tk : toolkits) {
        const Manifest* tm = tk.installed ? nullptr : &catalog.manifest("cuda", tk.version);
        Version cuda = tm ? Version::parse(release_of(*tm, tk.version)).value_or(tk.version) : tk.version;
        std::vector<Option> cds = with_cudnn ? cudnns_for(cuda.major()) : std::vector<Option>(1);
        for (const auto& cd : cds) {
            const Manifest* cm = with_cudnn && !cd.installed ? &catalog.manifest("cudnn", cd.version) : nullptr;
            auto cudnn = with_cudnn ? std::optional<Version>(cd.version) : std::nullopt;
            auto why = judge({cuda, cudnn, tm, cm, platforms, components, runs_here});
            if (why.empty()) return {cuda, tm, cudnn, cm};
            rejected.push_back(cuda.str() + (with_cudnn ? "+" + cd.version.str() : "") + ": " + why);
        }
        if (wanted == CudnnWanted::if_any) {
            auto why = judge({cuda, std::nullopt, tm, nullptr, platforms, components, runs_here});
            if (why.empty()) return {cuda, tm, std::nullopt, nullptr};
            rejected.push_back(cuda.str() + "+none: " + why);
        }
    }
    std::string shown = rejected.empty() ? "" : rejected.front();
    if (rejected.size() > 1) shown += " (and " + std::to_string(rejected.size() - 1) + " other candidates)";
    throw Error("no pair on the mirror fits " + spec.str() + ": " + shown,
                "mirror: " + catalog.location() +
                    "; `cudaenv install --list` shows its releases and the CUDA majors each cuDNN is built for");
}

std::vector<Option> mirror_options(Catalog& catalog, const std::string& product, const Version& prefix,
                                   const ReleaseFilter& runs_here = {}) {
    std::vector<Option> out;
    auto releases = catalog.releases(product);
    // The GPU's judgement comes first: it throws, naming the releases that
    // would run, when none that matches does.
    if (runs_here) runs_here(product, releases, prefix);
    for (const auto& r : releases)
        if (r.matches(prefix)) out.push_back({r, false});
    if (out.empty())
        throw Error("the mirror has no " + std::string(product == "cuda" ? "CUDA" : "cuDNN") + " release matching " +
                        (prefix.empty() ? std::string("anything") : prefix.str()) + " (it has " +
                        versions_text(catalog.releases(product)) + ")",
                    "mirror: " + catalog.location() + "; run `cudaenv install --list`");
    return out;
}

ArchiveJob job_for(const std::string& product, const std::string& key, const Component& c, const Artifact& a) {
    return {product, key, {c.name, c.version}, a, {}};
}

}  // namespace

Resolution resolve(Catalog& catalog, const Spec& spec, const std::vector<std::string>& platforms,
                   const RunsHere& runs_here) {
    auto toolkits = mirror_options(catalog, "cuda", spec.cuda, runs_here.releases);
    // Without +<cudnn>, the newest cuDNN built for the major, else none (what
    // activation would take: `list` shows such a toolkit as <release>+none).
    auto wanted = spec.cudnn_kind == Spec::Cudnn::none      ? CudnnWanted::none
                  : spec.cudnn_kind == Spec::Cudnn::version ? CudnnWanted::required
                                                            : CudnnWanted::if_any;
    std::optional<std::vector<Option>> cudnn_releases;  // judged once, however many toolkits are tried
    auto cudnns = [&](int) {
        if (wanted == CudnnWanted::if_any && catalog.releases("cudnn").empty()) return std::vector<Option>{};
        if (!cudnn_releases) cudnn_releases = mirror_options(catalog, "cudnn", spec.cudnn, runs_here.releases);
        return *cudnn_releases;
    };
    auto found = search(catalog, spec, toolkits, wanted, cudnns, platforms, {}, runs_here.pair);
    Resolution r{found.cuda_manifest, {}, found.cudnn_manifest};
    for (const auto& p : platforms)
        for (const auto& key : default_cuda_components(*r.cuda, p))
            if (std::find(r.components.begin(), r.components.end(), key) == r.components.end())
                r.components.push_back(key);
    return r;
}

Plan plan_spec(Store& store, Catalog& catalog, const Spec& spec, const std::vector<std::string>& components,
               const std::string& platform, const RunsHere& runs_here) {
    Plan plan;
    plan.platform = platform;
    plan.mirror = catalog.location();
    std::optional<ToolkitRecord> have;
    for (const auto& t : store.toolkits())
        if (t.version.matches(spec.cuda)) {
            have = t;
            break;
        }
    bool keep_toolkit = have && (!have->managed || components.empty());
    std::vector<Option> toolkits = have ? std::vector<Option>{{have->version, keep_toolkit}}
                                        : mirror_options(catalog, "cuda", spec.cuda, runs_here.releases);
    bool with_cudnn = spec.cudnn_kind == Spec::Cudnn::version;
    std::optional<std::vector<Option>> cudnn_releases;  // judged once, however many toolkits are tried
    auto cudnns_for = [&](int major) -> std::vector<Option> {
        for (const auto& c : store.cudnns())
            if (c.version.matches(spec.cudnn) && c.cuda_major == major) return {{c.version, true}};
        if (!cudnn_releases) cudnn_releases = mirror_options(catalog, "cudnn", spec.cudnn, runs_here.releases);
        return *cudnn_releases;
    };
    auto found = search(catalog, spec, toolkits, with_cudnn ? CudnnWanted::required : CudnnWanted::none, cudnns_for,
                        {platform}, components, runs_here.pair);

    if (keep_toolkit) {
        plan.notes.push_back("CUDA " + found.cuda.str() + " is already installed in " + fsx::to_utf8(have->path));
    } else {
        const auto& m = *found.cuda_manifest;
        auto wanted = components.empty() ? default_cuda_components(m, platform) : components;
        auto installed = have ? read_version_json_components(have->path) : std::map<std::string, ComponentInfo>{};
        ToolkitStep step{found.cuda.str(), store.managed_toolkit_path(found.cuda), {}};
        for (const auto& key : wanted)
            if (!installed.count(key)) {
                const auto& c = m.components.at(key);
                step.archives.push_back(job_for("cuda", key, c, *c.find(platform)));
            }
        if (step.archives.empty()) plan.notes.push_back("CUDA " + found.cuda.str() + " already has these components");
        else plan.toolkits.push_back(std::move(step));
    }
    if (!with_cudnn) return plan;
    const int major = found.cuda.major();
    Version cudnn = *found.cudnn;
    if (found.cudnn_manifest) {
        const auto& c = found.cudnn_manifest->components.at("cudnn");
        cudnn = Version::parse(c.version).value_or(cudnn);
        CudnnStep step{cudnn, major, store.managed_cudnn_path(cudnn.prefix(3), major),
                       job_for("cudnn", "cudnn", c, *c.find(platform, major))};
        if (fsx::exists(step.target)) found.cudnn_manifest = nullptr;  // this exact build is there
        else plan.cudnns.push_back(std::move(step));
    }
    if (!found.cudnn_manifest)
        plan.notes.push_back("cuDNN " + cudnn.prefix(3).str() + " for CUDA " + std::to_string(major) +
                             " is already installed in " + fsx::to_utf8(store.managed_cudnn_path(cudnn.prefix(3), major)));
    plan.pin = std::pair{found.cuda.str(), cudnn.prefix(3).str()};
    return plan;
}

void print_plan(const Plan& plan, std::ostream& out) {
    uint64_t bytes = 0;
    size_t count = 0;
    out << "plan for " << plan.platform << (plan.mirror.empty() ? "" : " from " + plan.mirror) << ":\n";
    for (const auto& n : plan.notes) out << "  note     " << n << "\n";
    auto show = [&](const ArchiveJob& j) {
        bytes += j.artifact.size;
        ++count;
        auto where = j.local.empty() ? j.product + "/redist/" + j.artifact.relative_path : fsx::to_utf8(j.local);
        out << "  fetch    " << j.component << " " << j.info.version << " ("
            << (j.artifact.size ? str::human_bytes(static_cast<double>(j.artifact.size)) : "size unknown") << ") "
            << where << "\n";
    };
    for (const auto& t : plan.toolkits) {
        for (const auto& j : t.archives) show(j);
        out << "  install  CUDA " << t.release << " into " << fsx::to_utf8(t.target) << "\n";
    }
    for (const auto& c : plan.cudnns) {
        show(c.archive);
        out << "  install  cuDNN " << c.version.prefix(3).str() << " for CUDA " << c.cuda_major << " into "
            << fsx::to_utf8(c.target) << "\n";
    }
    if (plan.pin) out << "  pin      CUDA " << plan.pin->first << " with cuDNN " << plan.pin->second << "\n";
    out << count << " archive" << (count == 1 ? "" : "s") << ", " << str::human_bytes(static_cast<double>(bytes))
        << "; nothing was changed (--dry-run)\n";
}

}  // namespace cudaenv::install
