// cudaenv-probe __gpus: prints the machine's GPUs and driver as the driver
// reports them (nvidia/probe_gpus), for gpu/machine in `cudaenv` to read back.
// Only the cudaenv-probe program (src/main_probe.cpp) registers it.
#include <CLI/CLI.hpp>
#include <iostream>

#include "nvidia/probe_gpus.hpp"
#include "commands/command_table.hpp"
#include "commands/context.hpp"

namespace cudaenv {

void register_probe_gpus(CLI::App* cmd, Context&) {
    cmd->callback([] { std::cout << nvidia::encode(nvidia::probe_machine()); });
}

}  // namespace cudaenv
