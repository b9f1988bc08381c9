// cudaenv discover [--add] [--root DIR...]: find toolkits and cuDNNs in the
// usual places; --add adopts the new ones.
#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "commands/update_shims.hpp"
#include "store/rehash.hpp"
#include "commands/table.hpp"
#include "store/discover.hpp"
#include "core/wsl.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"

namespace cudaenv {

namespace {

void run_discover(Context& ctx, bool add, const std::vector<std::string>& root_args, bool json) {
    std::vector<fs::path> roots;
    for (const auto& r : root_args) roots.push_back(fsx::absolute_normal(fsx::from_utf8(r)));
    if (roots.empty())
        if (auto env = platform::get_env("CUDAENV_DISCOVER_ROOTS"); env && !env->empty())
            for (const auto& r : split_path_list(*env, native_path_style()))
                if (!r.empty()) roots.push_back(fsx::absolute_normal(fsx::from_utf8(r)));
    auto& store = ctx.store();
    std::optional<Store::WriteLock> lock;
    if (add) lock.emplace(store);  // "known" is decided on the config.toml that is written back
    auto found = discover(roots, store);
    auto skipped = skip_windows_installs(found, detect_wsl(ctx.env()));  // WSL: never Windows DLLs
    for (const auto& s : skipped)
        std::cerr << "cudaenv: skipped " << fsx::to_utf8(s.found.path) << ": " << s.reason << "\n";
    if (add) {
        adopt(found, store);
        store.save_config();
        update_shims(ctx);
    }
    if (json) {
        auto arr = nlohmann::json::array();
        for (const auto& f : found)
            arr.push_back({{"kind", f.kind == Found::Kind::toolkit ? "toolkit" : "cudnn"},
                           {"version", f.version.str()},
                           {"cuda_major", f.cuda_major},
                           {"layout", f.layout},
                           {"variant", f.variant},
                           {"path", fsx::to_utf8(f.path)},
                           {"status", f.known ? "known" : (add ? "added" : "new")}});
        for (const auto& s : skipped)
            arr.push_back({{"kind", s.found.kind == Found::Kind::toolkit ? "toolkit" : "cudnn"},
                           {"version", s.found.version.str()},
                           {"path", fsx::to_utf8(s.found.path)},
                           {"status", "skipped"},
                           {"reason", s.reason}});
        std::cout << arr.dump(2) << "\n";
        return;
    }
    if (found.empty()) {
        std::cerr << "cudaenv: no CUDA toolkit or cuDNN found in the usual places\n";
        return;
    }
    Table t({"KIND", "VERSION", "FOR CUDA", "LAYOUT", "STATUS", "PATH"});
    size_t fresh = 0;
    for (const auto& f : found) {
        fresh += f.known ? 0 : 1;
        t.add({f.kind == Found::Kind::toolkit ? "toolkit" : "cudnn", f.version.str(),
               f.cuda_major ? std::to_string(f.cuda_major) : "?", f.layout,
               f.known ? "known" : (add ? "added" : "new"),
               fsx::to_utf8(f.path) + (f.variant.empty() ? "" : " (" + f.variant + ")")});
    }
    std::cout << t.str();
    if (!add && fresh) std::cerr << "Run `cudaenv discover --add` to adopt the " << fresh << " new one(s).\n";
}

}  // namespace

void register_discover(CLI::App* cmd, Context& ctx) {
    auto add = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    auto roots = std::make_shared<std::vector<std::string>>();
    cmd->add_flag("--add", *add, "Adopt what is found (nothing is copied)");
    cmd->add_flag("--json", *json, "Print JSON");
    cmd->add_option("--root", *roots, "Look here instead of the usual places (repeatable; also CUDAENV_DISCOVER_ROOTS)");
    cmd->callback([&ctx, add, roots, json] { run_discover(ctx, *add, *roots, *json); });
}

}  // namespace cudaenv
