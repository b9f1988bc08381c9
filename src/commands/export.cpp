// cudaenv export <format> [SPEC... | --all] [-o PATH] [--default SPEC]:
// write pairs for tools that never see a shell (CMake presets, env files,
// GitHub Actions, Lmod and Environment Modules, MSBuild, container engines
// through CDI), or the project's lock as a Containerfile. The formats live in src/export/.
#include <CLI/CLI.hpp>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "core/spec.hpp"
#include "export/formats.hpp"
#include "store/msvc.hpp"
#include "store/system_store.hpp"
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
    bool system = false;
    std::string base;
};

void run_export(Context& ctx, const ExportArgs& a) {
    const auto* format = exporting::find_format(a.format);
    if (!format) {
        std::string names;
        for (const auto& f : exporting::formats()) names += (names.empty() ? "" : ", ") + std::string(f.name);
        throw UsageError("unknown export format '" + a.format + "'", "one of: " + names);
    }
    if (a.all && !a.specs.empty()) throw UsageError("give specs or --all, not both");
    if (a.system && format->target != exporting::Target::cdi_folder)
        throw UsageError("--system applies to the cdi format only");
    if (!a.base.empty() && format->target != exporting::Target::project_lock)
        throw UsageError("--base applies to the dockerfile format only");
    exporting::Options opts;
    opts.cwd = ctx.cwd();
    opts.style = native_path_style();
    opts.base = a.base;
    if (!a.out.empty()) opts.out = ctx.cwd() / fsx::from_utf8(a.out);
    if (format->target == exporting::Target::project_lock) {
        if (a.all || !a.specs.empty())
            throw UsageError("`export " + a.format + "` builds the project's cudaenv.lock and takes no spec",
                             "run it in the project, or lock another pair first: cudaenv lock");
        std::cout << exporting::write(*format, {}, opts);
        return;
    }
    if (a.system) {
        // Read only: the spec goes to /etc/cdi, the system store is not changed.
        const auto root = system_store_root();
        std::error_code ec;
        if (!std::filesystem::is_directory(root, ec))
            throw Error("there is no system store at '" + fsx::to_utf8(root) + "'",
                        "install into it first: cudaenv install --system SPEC");
        ctx.replace_store(std::make_unique<Store>(root));
        opts.system_store = true;
    }
    auto& store = ctx.store();
    if (opts.style == PathStyle::windows && std::string_view(format->name) == "cmake-presets") {
        auto vs = installed_toolsets(store, ctx.env());
        opts.vs_instances = std::move(vs.instances);
        opts.toolsets = std::move(vs.toolsets);
    }
    auto pairs = exporting::select_pairs(store, a.specs, a.all);
    const auto env = format->writes == exporting::Writes::container ? exporting::container_environment() : ctx.env();
    std::vector<exporting::PairVars> vars;
    for (const auto& p : pairs) vars.push_back(exporting::pair_vars(store, p, env, opts.style));
    if (format->target == exporting::Target::cdi_folder) {
        auto active = ctx.active();
        if (!active.spec.system) {
            try {
                opts.active_pair = select_pair(active.spec, store).id();
            } catch (const Error&) {
                // The active spec names no pair of this store: no `current` device.
            }
        }
    }
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
    cmd->add_option("spec", a->specs, "The pairs (dotenv and github-env: exactly one; dockerfile: none, it reads cudaenv.lock)");
    cmd->add_flag("--all", a->all, "Every pair, and every toolkit on its own without cuDNN");
    cmd->add_option("-o,--output", a->out,
                    "The file or folder to write (lmod/tcl: a folder; cmake-presets: CMakeUserPresets.json here; cdi: "
                    "a folder, default /etc/cdi with --system, else your CDI folder; dockerfile: the build context "
                    "folder, default cudaenv-image)");
    cmd->add_option("--default", a->default_spec, "lmod/tcl: mark this pair as cuda's default (.modulerc.lua for Lmod, .version for Tcl)");
    cmd->add_flag("--system", a->system, "cdi: the system store's pairs, written into /etc/cdi");
    cmd->add_option("--base", a->base, "dockerfile: the glibc image to build on (default debian:bookworm-slim)");
    cmd->callback([&ctx, a] { run_export(ctx, *a); });
}

}  // namespace cudaenv
