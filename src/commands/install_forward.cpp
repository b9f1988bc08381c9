// cudaenv install ...: runs the cudaenv-install program beside this one with
// the same arguments (see src/main_install.cpp for why it is separate).
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

void run_install_forward(Context& ctx, const std::vector<std::string>& rest) {
    auto program = platform::required_sibling_program("cudaenv-install", "the installer");
    std::vector<std::string> argv = {fsx::to_utf8(program), "install"};
    argv.insert(argv.end(), rest.begin(), rest.end());
    auto env = platform::environment();
    // Pass on -v / --log-level, given before `install` and so parsed here.
    if (spdlog::get_level() != spdlog::level::warn) {
        std::erase_if(env, [](const auto& kv) { return kv.first == "CUDAENV_LOG"; });
        auto level = spdlog::level::to_string_view(spdlog::get_level());
        env.emplace_back("CUDAENV_LOG", std::string(level.data(), level.size()));
    }
    ctx.exit_code = platform::exec_command(argv, env);
}

}  // namespace

void register_install_forward(CLI::App* cmd, Context& ctx) {
    // Every argument, --help included, belongs to cudaenv-install.
    cmd->prefix_command();
    cmd->fallthrough(false);
    cmd->set_help_flag();
    cmd->callback([&ctx, cmd] { run_install_forward(ctx, cmd->remaining()); });
}

}  // namespace cudaenv
