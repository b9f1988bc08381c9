// cudaenv-install: the installer, a program of its own so that libcurl,
// libarchive and OpenSSL (dozens of shared libraries) are loaded only when
// something is installed, locked or mirrored, never on `use`, `env` or a
// prompt. `cudaenv install ...` runs it as `cudaenv-install install ...`
// (as git runs git-remote-https); so do `lock`, `sync` and `mirror`.
#include "app.hpp"

int main(int argc, char** argv) {
    // The command table's rows, with the commands themselves instead of the
    // forwarders that run this program.
    using namespace cudaenv;
    static const CommandRow rows[] = {
        with_define(*find_command("install"), register_install), with_define(*find_command("lock"), register_lock),
        with_define(*find_command("sync"), register_sync), with_define(*find_command("mirror"), register_mirror),
        // `cudaenv __complete` asks it for the options and subcommands of these four.
        *find_command("__complete")};
    return run_app(argc, argv, rows);
}
