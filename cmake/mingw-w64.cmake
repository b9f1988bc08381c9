# Cross build for 64-bit Windows with Debian's mingw-w64 (posix thread model,
# for std::thread / std::mutex): g++-mingw-w64-x86-64-posix. Used by the
# windows-cross preset and by cmake/build-mingw-deps.sh for the dependencies.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CUDAENV_MINGW_HOST x86_64-w64-mingw32)

set(CMAKE_C_COMPILER ${CUDAENV_MINGW_HOST}-gcc-posix)
set(CMAKE_CXX_COMPILER ${CUDAENV_MINGW_HOST}-g++-posix)
set(CMAKE_RC_COMPILER ${CUDAENV_MINGW_HOST}-windres)

# Libraries and headers come only from the mingw sysroot and the dependency
# prefix (added to CMAKE_FIND_ROOT_PATH by cmake/Dependencies.cmake), never from
# the Linux /usr; programs (perl, bash) still come from the host.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/${CUDAENV_MINGW_HOST})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Tests and try_run go through Wine (cmake/wine-run.sh: its own WINEPREFIX in
# the build folder, WINEDEBUG=-all). The dependency build turns this off so
# that no configure check starts Wine.
if(NOT CUDAENV_MINGW_NO_EMULATOR)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/wine-run.sh;${CMAKE_BINARY_DIR}/wineprefix")
endif()
