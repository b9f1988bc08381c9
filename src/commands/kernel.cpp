// cudaenv kernel add SPEC [--python P] [--name N] [--display-name T] [--prefix D],
// [--dll-hook], kernel list, kernel remove NAME: Jupyter kernelspecs that
// start the kernel through `cudaenv exec SPEC --` (src/export/kernelspec);
// --dll-hook also runs `setup --python` for the kernel's interpreter.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/table.hpp"
#include "core/spec.hpp"
#include "store/system_store.hpp"
#include "export/kernelspec.hpp"
#include "setup/setup_record.hpp"
#include "setup/setup_run.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

struct KernelArgs {
    std::string spec, python, name, display_name, prefix;
    bool dll_hook = false;
};

std::optional<fs::path> prefix_of(Context& ctx, const std::string& p) {
    if (p.empty()) return std::nullopt;
    return ctx.cwd() / fsx::from_utf8(p);
}

// The python3 (python.exe on Windows) first on PATH.
std::string default_python(Context& ctx) {
    const char* exe = platform::python_program;
    for (const auto& dir : split_path_list(ctx.env()("PATH").value_or(""), native_path_style())) {
        auto candidate = fsx::from_utf8(dir) / exe;
        std::error_code ec;
        if (!dir.empty() && fs::is_regular_file(candidate, ec)) return fsx::to_utf8(fs::absolute(candidate));
    }
    throw Error(std::string("no ") + exe + " on PATH for the kernel", "name one with --python PATH");
}

void run_add(Context& ctx, const KernelArgs& a) {
    auto spec = Spec::parse_or_throw(a.spec);
    if (spec.system) throw UsageError("a kernel needs a pair, not `system`", "e.g. cudaenv kernel add 12.4");
    if (!a.name.empty()) exporting::check_kernel_name(a.name);
    auto pair = select_pair(spec, ctx.store());
    std::string python = a.python.empty() ? default_python(ctx) : fsx::to_utf8(fs::absolute(ctx.cwd() / fsx::from_utf8(a.python)));
    std::error_code ec;
    if (!fs::exists(fsx::from_utf8(python), ec))
        throw Error("no Python at '" + python + "'", "name an interpreter that has ipykernel with --python");
    exporting::KernelSpec k;
    // The exact pair, not the spec as asked: a cuDNN added later must not change the kernel's.
    k.spec = unique_spec(pair, ctx.store());
    const auto cuda = pair.toolkit.version.str(), cudnn = pair.cudnn ? pair.cudnn->version.str() : "";
    k.name = a.name.empty() ? "cudaenv-" + cuda + (cudnn.empty() ? "" : "-cudnn" + cudnn) : a.name;
    k.display_name = a.display_name.empty() ? "Python (CUDA " + cuda + (cudnn.empty() ? "" : " + cuDNN " + cudnn) + ")"
                                            : a.display_name;
    k.python = python;
    k.cudaenv = fsx::to_utf8(platform::executable_path());
    k.dir = exporting::kernels_dir(ctx.env(), prefix_of(ctx, a.prefix));
    // A store found through the environment must be found by the kernel too,
    // however Jupyter starts it.
    auto set = [&](const std::string& name) { return ctx.env()(name).value_or("") != ""; };
    const auto moved = platform::store_root_variables();
    if (std::any_of(moved.begin(), moved.end(), set)) k.env.emplace_back("CUDAENV_ROOT", fsx::to_utf8(ctx.store().root()));
    if (set("CUDAENV_SYSTEM_ROOT")) k.env.emplace_back("CUDAENV_SYSTEM_ROOT", fsx::to_utf8(system_store_root()));
    exporting::write_kernel(k);
    std::cerr << "cudaenv: kernel '" << k.name << "' (" << k.display_name << ") in " << fsx::to_utf8(k.dir / fsx::from_utf8(k.name))
              << " starts " << python << " under `cudaenv exec " << k.spec << "`\n";
    // Windows Python 3.8+ does not search PATH for an extension module's
    // DLLs: the kernel's Python needs the DLL hook (`setup --python`).
    if (a.dll_hook) {
        SetupRequest request{"", false, std::nullopt, python, integration_commands()};
        check_setup_request(request);
        run_setup(ctx.store(), request);
    } else if (platform::python_needs_dll_hook) {
        const auto rec = SetupRecord::load(ctx.store().setup_file());
        if (std::none_of(rec.pythons.begin(), rec.pythons.end(), [&](const auto& p) { return p.interpreter == python; }))
            std::cerr << "hint: Python 3.8+ finds the pair's DLLs for extension modules only with the DLL hook: "
                         "add --dll-hook, or run `cudaenv setup --python "
                      << python << "`\n";
    }
}

void run_list(Context& ctx, const std::string& prefix) {
    auto dir = exporting::kernels_dir(ctx.env(), prefix_of(ctx, prefix));
    Table t({"NAME", "SPEC", "PYTHON", "DISPLAY NAME"});
    for (const auto& k : exporting::list_kernels(dir)) t.add({k.name, k.spec, k.python, k.display_name});
    std::cout << t.str();
}

}  // namespace

void register_kernel(CLI::App* cmd, Context& ctx) {
    cmd->require_subcommand(1);
    auto a = std::make_shared<KernelArgs>();
    auto* add = cmd->add_subcommand("add", "Write a kernelspec whose argv starts with `cudaenv exec SPEC --`");
    add->add_option("spec", a->spec, "The pair")->required();
    add->add_option("--python", a->python, "The Python with ipykernel (default: python3 on PATH)");
    add->add_option("--name", a->name, "The kernel's name (default: cudaenv-<version>)");
    add->add_option("--display-name", a->display_name, "The name Jupyter shows");
    add->add_option("--prefix", a->prefix, "Write under PREFIX/share/jupyter/kernels instead of the user's data folder");
    add->add_flag("--dll-hook", a->dll_hook,
                  "Also put the DLL hook into that Python (as `cudaenv setup --python`): on Windows it then finds the "
                  "pair's DLLs");
    add->callback([&ctx, a] { run_add(ctx, *a); });
    auto* list = cmd->add_subcommand("list", "The kernelspecs cudaenv wrote");
    list->add_option("--prefix", a->prefix, "Look under PREFIX/share/jupyter/kernels");
    list->callback([&ctx, a] { run_list(ctx, a->prefix); });
    auto* remove = cmd->add_subcommand("remove", "Remove a kernelspec cudaenv wrote");
    remove->add_option("name", a->name, "The kernel's name")->required();
    remove->add_option("--prefix", a->prefix, "Look under PREFIX/share/jupyter/kernels");
    remove->callback([&ctx, a] {
        auto dir = exporting::kernels_dir(ctx.env(), prefix_of(ctx, a->prefix));
        exporting::remove_kernel(dir, a->name);
        std::cerr << "cudaenv: removed kernel '" << a->name << "'\n";
    });
}

}  // namespace cudaenv
