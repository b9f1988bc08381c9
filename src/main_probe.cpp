// cudaenv-probe: the child `cudaenv check` starts for each pair, with that
// pair's environment (src/check/runner.cpp). It is the one program that loads
// CUDA's and cuDNN's libraries (dlopen), so it is linked dynamically, while
// `cudaenv` itself is linked static-pie for a fast start (CMakeLists.txt).
// `cudaenv check` runs it as `cudaenv-probe __probe ...`; the machine's GPUs
// are asked as `cudaenv-probe __gpus` (gpu/machine, kept per boot);
// `cudaenv-probe __environ FILE` writes its environment for `use --msvc`
// (store/msvc).
#include "app.hpp"
#include "platform/exit.hpp"

int main(int argc, char** argv) {
    using cudaenv::CommandArg;
    static constexpr cudaenv::CommandRow probe[] = {
        {"__probe", "", cudaenv::register_probe, CommandArg::none, CommandArg::none, false, false, true},
        {"__gpus", "", cudaenv::register_probe_gpus, CommandArg::none, CommandArg::none, false, false, true},
        {"__environ", "", cudaenv::register_probe_environ, CommandArg::none, CommandArg::none, false, false, true}};
    cudaenv::platform::exit_process(cudaenv::run_app(argc, argv, probe));
}
