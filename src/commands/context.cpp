#include "commands/context.hpp"

#include <algorithm>

#include "commands/command_table.hpp"
#include "store/system_store.hpp"
#include "store/activation_cache.hpp"
#include "store/detect_cache.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "shell/profile_lines.hpp"
#include "shell/shell.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"

namespace cudaenv {

Context::Context() : cwd_(platform::current_dir()) {}

Store& Context::store() {
    if (!store_) {
        store_ = std::make_unique<Store>(platform::default_store_root());
        attach_system_store(*store_);
    }
    return *store_;
}

EnvReader Context::env() const {
    return [](const std::string& name) { return platform::get_env(name); };
}

ActiveSpec Context::active() { return resolve_active(cwd_, platform::get_env("CUDAENV_VERSION"), store().config().global); }

std::optional<DetectedPair> Context::pair_for(const Spec& spec, std::string* full_spec) {
    if (spec.system) {
        if (full_spec) *full_spec = "system";
        return std::nullopt;
    }
    auto pair = select_pair(spec, store());
    if (full_spec) *full_spec = pair.spec();
    DetectionCache cache(store());
    return detect_pair(pair, cache);
}

Activation Context::plan_for(const std::string& spec_text, bool msvc) {
    return plan_activation(store(), Spec::parse_or_throw(spec_text), env(), native_path_style(), {msvc});
}

bool Context::msvc_auto() { return platform::has_msvc_toolsets && store().config().msvc == "auto"; }

std::unique_ptr<Shell> integration_shell(const std::string& command) {
    auto sh = platform::get_env("CUDAENV_SHELL");
    if (!sh || sh->empty()) {
        throw Error("`cudaenv " + command + "` needs the shell integration, which is not loaded in this shell",
                    integration_setup_hint(platform::is_windows));
    }
    return make_shell(*sh);
}

void Context::refresh_session_shims() {
    // The shims call cudaenv, also when cudaenv-install (beside it) writes them.
    auto exe = platform::executable_path();
    auto main_exe = platform::sibling_program("cudaenv");
    if (exe.filename() != main_exe.filename() && platform::is_executable(main_exe)) exe = main_exe;
    const auto dir = store().shims_dir();
    InitOptions opts{fsx::to_utf8(exe), fsx::to_utf8(dir), true, integration_commands()};
    const auto files = session_shim_files(opts);
    if (std::all_of(files.begin(), files.end(), [&](const SessionShimFile& f) {
            auto have = fsx::read_file(dir / fsx::from_utf8(f.name));
            return have && *have == f.bytes;
        }))
        return;
    write_session_shims(opts);
}

}  // namespace cudaenv
