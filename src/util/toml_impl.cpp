// toml++'s implementation, compiled once for every program that links
// cudaenv_lib: the build defines TOML_HEADER_ONLY=0 (cmake/Dependencies.cmake),
// so the files that include <toml++/toml.h> see declarations only.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
