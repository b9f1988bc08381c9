// cudaenv-install: the installer, a program of its own so that libcurl,
// libarchive and OpenSSL (dozens of shared libraries) are loaded only when
// something is installed, never on `use`, `env` or a prompt. `cudaenv
// install ...` runs it as `cudaenv-install install ...` (as git runs
// git-remote-https).
#include "app.hpp"

int main(int argc, char** argv) {
    // The command table's row, with the installer itself instead of the forwarder.
    cudaenv::CommandRow install = *cudaenv::find_command("install");
    install.define = cudaenv::register_install;
    return cudaenv::run_app(argc, argv, {&install, 1});
}
