#include "commands/for_framework.hpp"

#include <CLI/CLI.hpp>
#include <iostream>

#include "core/pairs.hpp"
#include "gpu/wheel.hpp"
#include "util/error.hpp"

namespace cudaenv {

void add_for_options(CLI::App* cmd, ForOptions& opts) {
    cmd->add_option("--for", opts.for_text, "Pick the pair a framework version needs, e.g. --for tensorflow==2.10");
    cmd->add_option("--os", opts.os, "With --for: the system the framework runs on (windows or linux; default: this one)")
        ->check(CLI::IsMember({"windows", "linux"}));
}

ForChoice choose_for_framework(Store& store, const ForOptions& opts) {
    auto req = parse_framework_request(opts.for_text);
    auto os = opts.os.empty() ? host_os_name() : opts.os;
    static const auto rows = framework_builds();
    ForChoice out;
    out.build = framework_build_for(rows, req, os);
    out.label = req.name + " " + req.version_text + " (" + os + ")";
    out.choice = choose_pair(out.build, all_pairs(store));
    // The wheel's own binaries decide whether it runs on this GPU, whatever pair is active.
    if (req.name == "torch") out.gpu_warning = gpu::torch_wheel_warning(req.version_text, store.root());
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
