#include "commands/for_framework.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "check/doctor_clients.hpp"
#include "core/pairs.hpp"
#include "platform/platform.hpp"
#include "gpu/wheel.hpp"
#include "util/error.hpp"

namespace cudaenv {

void add_for_options(CLI::App* cmd, ForOptions& opts) {
    cmd->add_option("--for", opts.for_text, "Pick the pair a framework version needs, e.g. --for tensorflow==2.10");
    cmd->add_option("--os", opts.os, "With --for: the system the framework runs on (windows or linux; default: this one)")
        ->check(CLI::IsMember({"windows", "linux"}));
}

namespace {

// The build of `req` installed in the active Python ("2.11.0+cu130" for
// `torch==2.11.0`), when the request names none and the installed release
// matches it: the build a project here runs on. "" otherwise.
std::string installed_build(const FrameworkRequest& req, const std::vector<FrameworkBuild>& rows) {
    bool has_builds =
        std::any_of(rows.begin(), rows.end(), [&](const auto& b) { return b.name == req.name && !b.variant.empty(); });
    if (!req.variant.empty() || !has_builds) return {};  // only torch's wheels differ by build
    for (const auto& [dist, version] :
         check::installed_frameworks(platform::get_env("PATH").value_or(""), std::chrono::seconds(60))) {
        if (dist != req.name || version.find('+') == std::string::npos) continue;
        auto installed = parse_framework_request(dist + "==" + version);
        if (installed.version.matches(req.version)) return version;
    }
    return {};
}

}  // namespace

ForChoice choose_for_framework(Store& store, const ForOptions& opts) {
    auto req = parse_framework_request(opts.for_text);
    auto os = opts.os.empty() ? host_os_name() : opts.os;
    static const auto rows = framework_builds();
    ForChoice out;
    const auto asked = req.version_text;  // as typed: the wheel check below matches it
    // Only this system's Python says which build this system runs.
    if (auto installed = opts.os.empty() ? installed_build(req, rows) : std::string(); !installed.empty()) {
        req = parse_framework_request(req.name + "==" + installed);
        out.installed = true;
    }
    out.build = framework_build_for(rows, req, os);
    out.label = req.name + " " + req.version_text + " (" + os + (out.installed ? ", installed" : "") + ")";
    out.choice = choose_pair(out.build, all_pairs(store));
    // The wheel's own binaries decide whether it runs on this GPU, whatever pair is active.
    if (req.name == "torch") out.gpu_warning = gpu::torch_wheel_warning(asked, store.root());
    if (!out.gpu_warning.empty()) std::cerr << "cudaenv: warning: " << out.gpu_warning << "\n";
    return out;
}

std::string install_spec_for(const FrameworkBuild& build) {
    std::string spec = build.cuda ? build.cuda->str() : "";
    if (build.cudnn) spec += "+" + build.cudnn->prefix(2).str();
    return spec;
}

std::string spec_for_framework(Store& store, const ForOptions& opts) {
    auto c = choose_for_framework(store, opts);
    if (!c.choice)
        throw Error("no installed pair fits " + c.label + ", which was built with " + c.build.needs(),
                    "install one: cudaenv install --for " + opts.for_text + (opts.os.empty() ? "" : " --os " + opts.os) +
                        "  (or cudaenv install " + install_spec_for(c.build) + ")");
    std::cerr << "cudaenv: " << c.label << " was " << c.choice->why << (c.build.unconfirmed ? " [source unconfirmed: " : " [source: ")
              << c.build.source << "]\n";
    return c.choice->pair.spec();
}

}  // namespace cudaenv
