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

add_library(cudaenv_deps INTERFACE)
target_link_libraries(cudaenv_deps INTERFACE
  CLI11::CLI11 tomlplusplus::tomlplusplus spdlog::spdlog nlohmann_json::nlohmann_json
  LibArchive::LibArchive LibLZMA::LibLZMA CURL::libcurl OpenSSL::Crypto Threads::Threads ${CMAKE_DL_LIBS})
if(WIN32)
  target_compile_definitions(cudaenv_deps INTERFACE UNICODE _UNICODE WIN32_LEAN_AND_MEAN NOMINMAX)
endif()
