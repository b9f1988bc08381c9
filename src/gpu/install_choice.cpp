#include "gpu/install_choice.hpp"

#include <algorithm>
#include <ostream>

#include "gpu/pair_code.hpp"
#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv::gpu {

namespace {

std::string product_name(const std::string& product) { return product == "cudnn" ? "cuDNN" : "CUDA"; }

bool runs(const ReleaseVerdict& v) { return v.runs != Runs::no; }

bool anything_known(const Machine& m) { return m.known() || !m.driver.empty() || !m.driver_cuda.empty(); }

}  // namespace

ReleaseVerdict release_runs(const std::string& product, const Version& release, const Machine& m) {
    // The one judgement (gpu/pair_code), of this release alone: a CUDA release
    // by its libraries' GPU code and the driver, a cuDNN release by the widest of its builds.
    auto v = product == "cudnn" ? judge_pair(std::nullopt, release, {}, m) : judge_pair(release, std::nullopt, {}, m);
    ReleaseVerdict out;
    auto why = v.refusal(m);
    if (!why.empty()) {
        out.runs = Runs::no;
        out.why = why;
    } else {
        out.runs = v.runs;
        for (const auto& g : v.gpus)
            if (g.runs == v.runs) out.why = m.label(g.gpu) + ": " + g.why;
    }
    return out;
}

std::optional<Version> newest_that_runs(const std::string& product, const std::vector<Version>& releases,
                                        const Version& wanted, const Machine& m) {
    for (const auto& r : releases)
        if (r.matches(wanted) && runs(release_runs(product, r, m))) return r;
    return std::nullopt;
}

void keep_releases_that_run(const std::string& product, std::vector<Version>& releases, const Version& wanted,
                            const Machine& m, bool force, std::ostream& err) {
    if (!anything_known(m)) return;
    const auto name = product_name(product);
    const std::string note = m.override_note().empty() ? "" : " (" + m.override_note() + ")";
    std::vector<Version> refused;
    std::string first_why;
    for (const auto& r : releases) {
        if (!r.matches(wanted)) continue;
        auto v = release_runs(product, r, m);
        if (runs(v)) break;  // the newest match runs: nothing to say
        refused.push_back(r);
        if (first_why.empty()) first_why = v.why;
    }
    if (refused.empty()) return;
    auto chosen = newest_that_runs(product, releases, wanted, m);
    if (force) {
        err << "cudaenv: warning: " << name << " " << refused.front().str() << " cannot run here: " << first_why << note
            << "; installing it anyway (--force)\n";
        return;
    }
    if (!chosen) {
        std::vector<std::string> would;
        for (const auto& r : releases)
            if (would.size() < 5 && runs(release_runs(product, r, m))) would.push_back(r.str());
        throw Error("no " + name + " release matching " + wanted.str() + " runs here: " + refused.front().str() +
                        " cannot (" + first_why + ")" + note,
                    (would.empty() ? "the mirror has no " + name + " release that runs here"
                                   : "releases that would: " + str::join(would, ", ")) +
                        "; --force installs it anyway (for another machine)");
    }
    err << "cudaenv: " << name << " " << refused.front().str() << " cannot run here (" << first_why << ")" << note
        << ": taking " << chosen->str() << ", the newest " << name << " " << wanted.str() << " that does\n";
    std::erase_if(releases, [&](const Version& r) {
        return std::find(refused.begin(), refused.end(), r) != refused.end();
    });
}

}  // namespace cudaenv::gpu
