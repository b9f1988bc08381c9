#pragma once
// Where an installed cudaenv keeps its files, found from the running
// executable, so a relocated install (an unpacked zip, a prefix moved
// elsewhere) still finds them.
#include <filesystem>
#include <string>

namespace cudaenv::platform {

// The private folder: libraries and helpers cudaenv loads or runs itself
// (never on a search path of their own). Installed, <prefix>/lib/<multiarch>/cudaenv
// on Debian (<prefix>/lib/cudaenv elsewhere), the programs in <prefix>/bin; in
// the Windows zip lib/cudaenv beside the programs; in a build tree,
// <build>/lib/cudaenv. The first of those that exists, else the installed one.
// CMake installs there with `install(TARGETS x DESTINATION ${CUDAENV_INSTALL_PRIVLIBDIR})`.
std::filesystem::path private_lib_dir();
// The installed private folder relative to the programs' ("../lib/x86_64-linux-gnu/cudaenv").
std::string private_lib_from_bin();

// The same rule for a given executable path (testable).
std::filesystem::path private_lib_dir_for(const std::filesystem::path& exe);

// Another of cudaenv's programs (cudaenv-install, cudaenv-probe,
// cudaenv-shim; the name without .exe): it sits beside the running
// executable, in a build tree, in <prefix>/bin and in the Windows zip alike.
std::filesystem::path sibling_program(const std::string& name);
// The same for a program the command cannot go on without; `what` names it
// for the error when it is missing ("the installer").
std::filesystem::path required_sibling_program(const std::string& name, const std::string& what);

}  // namespace cudaenv::platform
