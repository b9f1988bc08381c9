// cudaenv-install: the installer, a program of its own so that libcurl,
// libarchive and OpenSSL (dozens of shared libraries) are loaded only when
// something is installed, locked or mirrored, never on `use`, `env` or a
// prompt. `cudaenv install ...` runs it as `cudaenv-install install ...`
// (as git runs git-remote-https); so do `lock`, `sync` and `mirror`.
#include "app.hpp"
#include "commands/context.hpp"

int main(int argc, char** argv) {
    static constexpr cudaenv::CommandRegistration install[] = {{"install", cudaenv::register_install},
                                                                {"lock", cudaenv::register_lock},
                                                                {"sync", cudaenv::register_sync},
                                                                {"mirror", cudaenv::register_mirror}};
    return cudaenv::run_app(argc, argv, install);
}
