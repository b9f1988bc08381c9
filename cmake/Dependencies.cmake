# All third-party code comes from the system (Debian's -dev packages) or vcpkg
# (vcpkg.json) through find_package; nothing is vendored. The mingw-w64 cross
# build (preset windows-cross) takes its static libraries from the prefix that
# cmake/build-mingw-deps.sh builds from Debian's source packages, and the
# header-only libraries from Debian's headers (a folder of links to just them).
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

# toml++, spdlog and fmt are used header-only: `use`, every tool shim call and
# prompt hooks start cudaenv, and each shared library adds to that start-up.
get_target_property(CUDAENV_TOML_INCLUDE tomlplusplus::tomlplusplus INTERFACE_INCLUDE_DIRECTORIES)
add_library(cudaenv_toml INTERFACE)
target_include_directories(cudaenv_toml SYSTEM INTERFACE ${CUDAENV_TOML_INCLUDE})
target_compile_definitions(cudaenv_toml INTERFACE TOML_HEADER_ONLY=1)
find_package(fmt CONFIG REQUIRED)
if(TARGET spdlog::spdlog_header_only AND TARGET fmt::fmt-header-only)
  set(CUDAENV_SPDLOG spdlog::spdlog_header_only fmt::fmt-header-only)
else()
  set(CUDAENV_SPDLOG spdlog::spdlog)
endif()

add_library(cudaenv_deps INTERFACE)
target_link_libraries(cudaenv_deps INTERFACE
  CLI11::CLI11 cudaenv_toml ${CUDAENV_SPDLOG} nlohmann_json::nlohmann_json
  LibArchive::LibArchive LibLZMA::LibLZMA CURL::libcurl OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS})
if(WIN32)
  target_compile_definitions(cudaenv_deps INTERFACE UNICODE _UNICODE WIN32_LEAN_AND_MEAN NOMINMAX)
endif()
