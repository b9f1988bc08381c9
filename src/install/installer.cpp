#include "install/installer.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "install/execute.hpp"
#include "install/manifest.hpp"
#include "install/mirror.hpp"
#include "install/plan.hpp"
#include "install/staging.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv::install {

namespace {

void carry_out(Store& store, const Plan& plan, Catalog& catalog, const InstallOptions& opts, std::ostream& out) {
    if (opts.dry_run) return print_plan(plan, out);
    execute_plan(store, plan, catalog, {opts.quiet, opts.connections}, out);
}

}  // namespace

void install_archives(Store& store, const std::vector<fs::path>& archives, const InstallOptions& opts,
                      std::ostream& out) {
    std::optional<StoreLock> lock;  // planned under the lock, so "already installed" still holds when it runs
    if (!opts.dry_run) lock.emplace(store, opts.quiet);
    Catalog none("");  // every archive is a local file
    carry_out(store, plan_archives(store, archives, opts.sha256, host_platform()), none, opts, out);
}

void install_spec(Store& store, const Spec& spec, const InstallOptions& opts, std::ostream& out) {
    if (spec.system) throw UsageError("`system` is not installable", "give a version: cudaenv install 12.6+9.8.0");
    std::optional<StoreLock> lock;
    if (!opts.dry_run) lock.emplace(store, opts.quiet);
    Catalog catalog(opts.mirror);
    carry_out(store, plan_spec(store, catalog, spec, opts.components, host_platform(), opts.runs_here), catalog, opts,
              out);
}

void list_mirror(const InstallOptions& opts, std::ostream& out) {
    // Written only once everything was read: an error leaves stdout empty.
    std::ostringstream text;
    Mirror mirror(opts.mirror);
    text << "mirror: " << mirror.location() << "\n";
    const auto platform = host_platform();
    for (const char* product : {"cuda", "cudnn"}) {
        const bool cudnn = std::string(product) == "cudnn";
        text << (cudnn ? "cuDNN:" : "CUDA toolkits:");
        auto rs = mirror.releases(product);
        if (rs.empty()) text << " none";
        for (const auto& r : rs) {
            text << " " << r.str();
            if (!cudnn) continue;
            // Each cuDNN release comes in one build per CUDA major: say which, for this platform.
            auto m = Manifest::parse(mirror.manifest_text(product, r.str()), "redistrib_" + r.str() + ".json", r.str(),
                                     product);
            std::vector<int> majors;
            if (auto it = m.components.find("cudnn"); it != m.components.end())
                for (const auto& a : it->second.artifacts)
                    if (a.platform == platform && a.cuda_major > 0 &&
                        std::find(majors.begin(), majors.end(), a.cuda_major) == majors.end())
                        majors.push_back(a.cuda_major);
            std::sort(majors.begin(), majors.end());
            std::vector<std::string> names;
            for (int v : majors) names.push_back(std::to_string(v));
            text << (names.empty() ? " (no build for " + platform + ")" : " (CUDA " + str::join(names, ", ") + ")");
        }
        text << "\n";
    }
    out << text.str();
}

}  // namespace cudaenv::install
