// cudaenv-probe __environ FILE: writes this process's environment to FILE
// as records (store/msvc encode_environment), so that every byte of every
// value comes back as it was. `use --msvc` runs it after vcvarsall.bat, in
// the cmd.exe that ran it (shell/cmd/vcvars_capture.cmd). Only the
// cudaenv-probe program (src/main_probe.cpp) registers it.
#include <CLI/CLI.hpp>

#include "commands/command_table.hpp"
#include "commands/context.hpp"
#include "platform/platform.hpp"
#include "store/msvc.hpp"
#include "util/fs.hpp"

namespace cudaenv {

void register_probe_environ(CLI::App* cmd, Context&) {
    auto file = std::make_shared<std::string>();
    cmd->add_option("file", *file)->required();
    cmd->callback([file] {
        fsx::write_file_atomic(fsx::from_utf8(*file), encode_environment(platform::environment()),
                               fsx::Durability::cache);
    });
}

}  // namespace cudaenv
