// cudaenv export <format> [SPEC... | --all] [-o PATH] [--default SPEC]:
// write pairs for tools that never see a shell (CMake presets, env files,
// GitHub Actions, Lmod and Environment Modules, MSBuild). The formats live in src/export/.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "core/spec.hpp"
#include "export/formats.hpp"
#include "store/msvc.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

struct ExportArgs {
    std::string format;
    std::vector<std::string> specs;
    bool all = false;
    std::string out;
    std::string default_spec;
};

void run_export(Context& ctx, const ExportArgs& a) {
    const auto* format = exporting::find_format(a.format);
    if (!format) {
        std::string names;
        for (const auto& f : exporting::formats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
        throw UsageError("unknown export format '" + a.format + "'", "one of: " + names);
    }
    if (a.all && !a.specs.empty()) throw UsageError("give specs or --all, not both");
    auto& store = ctx.store();
    exporting::Options opts;
    opts.cwd = ctx.cwd();
    opts.style = native_path_style();
    if (!a.out.empty()) opts.out = ctx.cwd() / fsx::from_utf8(a.out);
    if (opts.style == PathStyle::windows && std::string_view(format->name) == "cmake-presets") {
        auto vs = installed_toolsets(store, ctx.env());
        opts.vs_instances = std::move(vs.instances);
        opts.toolsets = std::move(vs.toolsets);
    }
    auto pairs = exporting::select_pairs(store, a.specs, a.all);
    std::vector<exporting::PairVars> vars;
    for (const auto& p : pairs) vars.push_back(exporting::pair_vars(store, p, ctx.env(), opts.style));
    if (!a.default_spec.empty()) {
        if (format->target != exporting::Target::folder)
            throw UsageError("--default applies to the lmod and tcl formats only");
        auto pick = exporting::select_pairs(store, {a.default_spec}, false).front();
        auto pv = exporting::pair_vars(store, pick, ctx.env(), opts.style);
        bool exported = false;
        for (const auto& v : vars) exported = exported || v.spec == pv.spec;
        if (!exported)
            throw UsageError("--default " + a.default_spec + " names " + pv.spec + ", which this export does not write",
                             "add it to the specs, or use --all");
        opts.default_name = exporting::module_version(pv);
    }
    std::cout << exporting::write(*format, vars, opts);
}

}  // namespace

void register_export(CLI::App* cmd, Context& ctx) {
    auto a = std::make_shared<ExportArgs>();
    std::string formats;
    for (const auto& f : exporting::formats()) formats += std::string("\n  ") + f.name + ": " + f.summary;
    cmd->add_option("format", a->format, "The format:" + formats)->required();
    cmd->add_option("spec", a->specs, "The pairs (dotenv and github-env: exactly one)");
    cmd->add_flag("--all", a->all, "Every pair, and every toolkit on its own without cuDNN");
    cmd->add_option("-o,--output", a->out, "The file or folder to write (lmod/tcl: a folder; cmake-presets: CMakeUserPresets.json here)");
    cmd->add_option("--default", a->default_spec, "lmod/tcl: mark this pair as cuda's default (.modulerc.lua for Lmod, .version for Tcl)");
    cmd->callback([&ctx, a] { run_export(ctx, *a); });
}

}  // namespace cudaenv
