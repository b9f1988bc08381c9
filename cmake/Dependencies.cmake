# All third-party code comes from the system (Debian's -dev packages) or vcpkg
# (vcpkg.json) through find_package; nothing is vendored. The mingw-w64 cross
# build (preset windows-cross) takes its static libraries from the prefix that
# cmake/build-mingw-deps.sh builds from Debian's source packages, and the
# header-only libraries from Debian's headers (a folder of links to just them).
# cudaenv_deps: what every program links. cudaenv_install_deps: libarchive,
# liblzma, libcurl and OpenSSL, linked only by the programs that run the
# installer's code (cudaenv-install and the tests of that code): `cudaenv`
# itself is linked static-pie on Linux (CMakeLists.txt) and must not name
# their shared libraries. Every source still compiles against their headers.
function(cudaenv_define_deps)  # ARGN: the libraries every program links
  set(_install LibArchive::LibArchive LibLZMA::LibLZMA CURL::libcurl OpenSSL::Crypto)
  add_library(cudaenv_install_deps INTERFACE)
  target_link_libraries(cudaenv_install_deps INTERFACE ${_install})
  add_library(cudaenv_deps INTERFACE)
  target_link_libraries(cudaenv_deps INTERFACE ${ARGN})
  foreach(_t ${_install})
    target_include_directories(cudaenv_deps SYSTEM INTERFACE $<TARGET_PROPERTY:${_t},INTERFACE_INCLUDE_DIRECTORIES>)
    target_compile_definitions(cudaenv_deps INTERFACE $<TARGET_PROPERTY:${_t},INTERFACE_COMPILE_DEFINITIONS>)
  endforeach()
  if(WIN32)
    target_compile_definitions(cudaenv_deps INTERFACE UNICODE _UNICODE WIN32_LEAN_AND_MEAN NOMINMAX)
  endif()
endfunction()

if(MINGW AND CMAKE_CROSSCOMPILING)
  include(${CMAKE_CURRENT_LIST_DIR}/MingwDependencies.cmake)
  return()
endif()

find_package(CLI11 CONFIG REQUIRED)
find_package(tomlplusplus CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
find_package(LibArchive REQUIRED)
find_package(LibLZMA REQUIRED)
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(Threads REQUIRED)

# toml++, spdlog and fmt are not linked as shared libraries: `use`, every tool
# shim call and prompt hooks start cudaenv, and each shared library adds to that
# start-up. toml++ is built in its compiled mode instead of header-only: its
# parser and formatter are compiled once, in src/util/toml_impl.cpp, not in
# every file that reads a TOML file (docs/build.md).
get_target_property(CUDAENV_TOML_INCLUDE tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
add_library(cudaenv_toml INTERFACE)
target_include_directories(cudaenv_toml SYSTEM INTERFACE ${CUDAENV_TOML_INCLUDE})
target_compile_definitions(cudaenv_toml INTERFACE TOML_HEADER_ONLY=0)
# spdlog and fmt likewise: their headers only, in compiled mode, with their
# implementations compiled once in src/util/spdlog_impl.cpp.
find_package(fmt CONFIG REQUIRED)
add_library(cudaenv_spdlog INTERFACE)
foreach(_t spdlog::spdlog fmt::fmt)
  get_target_property(_inc ${_t} INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(cudaenv_spdlog SYSTEM INTERFACE ${_inc})
endforeach()
target_compile_definitions(cudaenv_spdlog INTERFACE SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)

cudaenv_define_deps(CLI11::CLI11 cudaenv_toml cudaenv_spdlog nlohmann_json::nlohmann_json Threads::Threads
                    ${CMAKE_DL_LIBS})
