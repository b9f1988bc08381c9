# Dependencies of the mingw-w64 cross build (included by Dependencies.cmake).
# The same target names as the native build, so nothing else in the project
# knows which build it is in.
set(CUDAENV_MINGW_DEPS_PREFIX "" CACHE PATH
    "Prefix with the mingw dependencies (empty: cmake/build-mingw-deps.sh's cached one)")
set(_p ${CUDAENV_MINGW_DEPS_PREFIX})
if(NOT _p)
  # Run at every configure: it answers at once from its cache, and a changed
  # script (a new hash) builds a new prefix instead of using a stale one.
  message(STATUS "mingw dependencies: cmake/build-mingw-deps.sh (the first run builds them)")
  execute_process(COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/build-mingw-deps.sh
                  OUTPUT_VARIABLE _p OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "cmake/build-mingw-deps.sh failed (exit ${_rc}); see its messages above")
  endif()
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/build-mingw-deps.sh)
message(STATUS "mingw dependencies: ${_p}")
list(APPEND CMAKE_FIND_ROOT_PATH ${_p})
list(APPEND CMAKE_PREFIX_PATH ${_p})

function(_cudaenv_static_lib target file)
  if(NOT EXISTS ${_p}/lib/${file})
    message(FATAL_ERROR "${_p}/lib/${file} is missing; remove the prefix and run cmake/build-mingw-deps.sh again")
  endif()
  add_library(${target} STATIC IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES IMPORTED_LOCATION ${_p}/lib/${file}
                                             INTERFACE_INCLUDE_DIRECTORIES ${_p}/include)
endfunction()

# Static archives: each says what it needs from Windows and from the others.
_cudaenv_static_lib(cudaenv_mingw_z libz.a)
_cudaenv_static_lib(cudaenv_mingw_lzma liblzma.a)
set_target_properties(cudaenv_mingw_lzma PROPERTIES INTERFACE_COMPILE_DEFINITIONS LZMA_API_STATIC)
_cudaenv_static_lib(cudaenv_mingw_archive libarchive.a)
set_target_properties(cudaenv_mingw_archive PROPERTIES
  INTERFACE_COMPILE_DEFINITIONS LIBARCHIVE_STATIC
  INTERFACE_LINK_LIBRARIES "cudaenv_mingw_lzma;cudaenv_mingw_z;bcrypt")
_cudaenv_static_lib(cudaenv_mingw_curl libcurl.a)
set_target_properties(cudaenv_mingw_curl PROPERTIES
  INTERFACE_COMPILE_DEFINITIONS CURL_STATICLIB
  INTERFACE_LINK_LIBRARIES "cudaenv_mingw_z;ws2_32;crypt32;secur32;bcrypt;advapi32;normaliz;iphlpapi")
_cudaenv_static_lib(cudaenv_mingw_crypto libcrypto.a)
set_target_properties(cudaenv_mingw_crypto PROPERTIES INTERFACE_LINK_LIBRARIES "ws2_32;crypt32;bcrypt;advapi32;user32")
add_library(LibArchive::LibArchive ALIAS cudaenv_mingw_archive)
add_library(LibLZMA::LibLZMA ALIAS cudaenv_mingw_lzma)
add_library(CURL::libcurl ALIAS cudaenv_mingw_curl)
add_library(OpenSSL::Crypto ALIAS cudaenv_mingw_crypto)

# Header-only libraries, from Debian's -dev packages through the prefix's
# folder of links (never /usr/include itself: it holds Linux's libc headers).
set(_h ${_p}/header-only/include)
add_library(cudaenv_mingw_headers INTERFACE)
target_include_directories(cudaenv_mingw_headers SYSTEM INTERFACE ${_h})
foreach(_name CLI11::CLI11 nlohmann_json::nlohmann_json doctest::doctest)
  string(REPLACE "::" "_" _t ${_name})
  add_library(cudaenv_mingw_${_t} INTERFACE)
  target_link_libraries(cudaenv_mingw_${_t} INTERFACE cudaenv_mingw_headers)
  add_library(${_name} ALIAS cudaenv_mingw_${_t})
endforeach()
add_library(cudaenv_mingw_toml INTERFACE)
target_link_libraries(cudaenv_mingw_toml INTERFACE cudaenv_mingw_headers)
# Compiled once in src/util/toml_impl.cpp, as in the native build (cmake/Dependencies.cmake).
target_compile_definitions(cudaenv_mingw_toml INTERFACE TOML_HEADER_ONLY=0)
add_library(tomlplusplus::tomlplusplus ALIAS cudaenv_mingw_toml)
# spdlog over fmt in compiled mode, both compiled once in src/util/spdlog_impl.cpp
# as in the native build (Debian's tweakme.h already says SPDLOG_FMT_EXTERNAL).
add_library(cudaenv_mingw_spdlog INTERFACE)
target_link_libraries(cudaenv_mingw_spdlog INTERFACE cudaenv_mingw_headers)
target_compile_definitions(cudaenv_mingw_spdlog INTERFACE SPDLOG_COMPILED_LIB SPDLOG_FMT_EXTERNAL)
add_library(spdlog::spdlog ALIAS cudaenv_mingw_spdlog)

find_package(Threads REQUIRED)
cudaenv_define_deps(CLI11::CLI11 tomlplusplus::tomlplusplus spdlog::spdlog nlohmann_json::nlohmann_json Threads::Threads)
# One .exe without libstdc++/libgcc/winpthread DLLs beside it: it runs from
# any folder (and under Wine) as it is.
target_link_options(cudaenv_deps INTERFACE -static)
