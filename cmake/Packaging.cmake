# Install layout (GNUInstallDirs) and packages (CPack): `cmake --install`,
# `cpack -G DEB` on Linux, `cpack -G ZIP` from the windows-cross build.
# docs/packaging.md says what goes where and how it is tested.
include(GNUInstallDirs)

# The Windows zip is flat: the programs at its top, as Windows tools ship.
if(WIN32)
  set(CUDAENV_INSTALL_BINDIR .)
  set(CUDAENV_INSTALL_DATADIR share)
  set(CUDAENV_INSTALL_DOCDIR .)
else()
  set(CUDAENV_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
  set(CUDAENV_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR})
  set(CUDAENV_INSTALL_DOCDIR ${CMAKE_INSTALL_DOCDIR})
endif()
# Files cudaenv loads or runs itself (later: the audit library of `trace`)
# go here and are found from the executable (src/platform/install_dirs.cpp),
# so a relocated install still works. Pattern for a new one:
#   set_target_properties(x PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CUDAENV_BUILD_PRIVLIBDIR})
#   install(TARGETS x LIBRARY DESTINATION ${CUDAENV_INSTALL_PRIVLIBDIR})
# Below Debian's multiarch folder (/usr/lib/x86_64-linux-gnu/cudaenv), not
# right below /usr/lib: for a shared object there CPack's DEB generator adds
# postinst and postrm scripts that run ldconfig, pointless for a library loaded
# by absolute path only, and a postrm keeps an `rc` entry after `dpkg -r`.
if(WIN32 OR NOT CMAKE_LIBRARY_ARCHITECTURE)
  set(CUDAENV_INSTALL_PRIVLIBDIR lib/cudaenv)
else()
  set(CUDAENV_INSTALL_PRIVLIBDIR lib/${CMAKE_LIBRARY_ARCHITECTURE}/cudaenv)
endif()
set(CUDAENV_BUILD_PRIVLIBDIR ${PROJECT_BINARY_DIR}/lib/cudaenv)
file(RELATIVE_PATH _bin_to_lib /p/${CUDAENV_INSTALL_BINDIR} /p/${CUDAENV_INSTALL_PRIVLIBDIR})
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/platform/install_dirs.cpp PROPERTIES
  COMPILE_DEFINITIONS "CUDAENV_BIN_TO_PRIVLIB=\"${_bin_to_lib}\"")

install(TARGETS cudaenv cudaenv-install cudaenv-probe cudaenv-shim RUNTIME DESTINATION ${CUDAENV_INSTALL_BINDIR})

# Shell completions, written at build time by the binary itself, each where
# its shell looks (the shell table's completion_file: cmake/Completions.cmake).
set(_share ${PROJECT_BINARY_DIR}/share)
set(_run_env ${CMAKE_COMMAND} -E env CUDAENV_ROOT=${PROJECT_BINARY_DIR}/completions-store)
set(_completion_share ${PROJECT_BINARY_DIR}/completions-share)
set(_completions ${PROJECT_BINARY_DIR}/completions.stamp)
if(WIN32)
  set(_os windows)
else()
  set(_os posix)
endif()
add_custom_command(OUTPUT ${_completions}
  COMMAND ${_run_env} ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:cudaenv> "-DEMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
          -DOS=${_os} -DOUT=${_completion_share} -DSTAMP=${_completions} -P ${PROJECT_SOURCE_DIR}/cmake/Completions.cmake
  DEPENDS cudaenv ${PROJECT_SOURCE_DIR}/cmake/Completions.cmake VERBATIM)
install(DIRECTORY ${_completion_share}/ DESTINATION ${CUDAENV_INSTALL_DATADIR})
if(NOT WIN32)
  # The man page, from the program's own help (cmake/ManPage.cmake).
  find_program(CUDAENV_HELP2MAN help2man)
  find_program(CUDAENV_GZIP gzip)
  if(CUDAENV_HELP2MAN AND CUDAENV_GZIP)
    set(_man ${_share}/man/man1/cudaenv.1.gz)
    file(MAKE_DIRECTORY ${_share}/man/man1)
    add_custom_command(OUTPUT ${_man}
      COMMAND ${_run_env} ${CMAKE_COMMAND} -DEXE=$<TARGET_FILE:cudaenv> -DHELP2MAN=${CUDAENV_HELP2MAN}
              -DGZIP=${CUDAENV_GZIP} -DOUT=${_man} -DWORK=${_share}/man -P ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake
      DEPENDS cudaenv cudaenv-install ${PROJECT_SOURCE_DIR}/cmake/ManPage.cmake VERBATIM)
    list(APPEND _completions ${_man})
    install(FILES ${_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  else()
    message(STATUS "help2man not found (apt install help2man): no man page")
  endif()
endif()
add_custom_target(cudaenv_share ALL DEPENDS ${_completions})

# Docs and licenses. Debian keeps the licenses in one file, copyright
# (packaging/copyright: cudaenv's MIT license and the third-party code in
# the programs); the zip carries LICENSE beside it.
install(FILES README.md ARCHITECTURE.md DESTINATION ${CUDAENV_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CUDAENV_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
if(WIN32)
  install(FILES LICENSE DESTINATION .)
  install(FILES packaging/copyright DESTINATION . RENAME THIRD-PARTY-NOTICES.txt)
  # Apache-2.0 (OpenSSL) and GPL-3 (the GCC runtime's exception) in full, from
  # the build machine's Debian base-files.
  foreach(_l Apache-2.0 GPL-3)
    if(EXISTS /usr/share/common-licenses/${_l})
      install(FILES /usr/share/common-licenses/${_l} DESTINATION licenses)
    endif()
  endforeach()
else()
  install(FILES packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # A native Debian package's changelog: /usr/share/doc/cudaenv/changelog.gz.
  find_program(CUDAENV_GZIP gzip)
  string(TIMESTAMP CUDAENV_DEB_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
  set(CUDAENV_DEB_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_CONTACT "cudaenv maintainers <cudaenv@users.noreply.github.com>")
  configure_file(packaging/changelog ${_share}/doc/changelog @ONLY)
  execute_process(COMMAND ${CUDAENV_GZIP} -9n -c ${_share}/doc/changelog OUTPUT_FILE ${_share}/doc/changelog.gz)
  install(FILES ${_share}/doc/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
  install(FILES packaging/lintian-overrides DESTINATION ${CMAKE_INSTALL_DATADIR}/lintian/overrides RENAME cudaenv)
endif()

# Packages.
set(CPACK_PACKAGE_NAME cudaenv)
set(CPACK_PACKAGE_VENDOR "the cudaenv authors")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "cudaenv maintainers <cudaenv@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "side-by-side CUDA toolkit and cuDNN pairs per shell or project")
set(CPACK_PACKAGE_DESCRIPTION "cudaenv keeps CUDA toolkit and cuDNN pairs side by side (for example
CUDA 11.8 with cuDNN 8.9.7 and CUDA 12 with cuDNN 9) and switches between
them per shell session or per project, as nvm and pyenv do for Node and
Python. It adopts toolkits already on disk, installs more from NVIDIA's
archives into a store of the user's own, and checks that each pair really
loads and runs, in the shells `cudaenv init --help` names.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS
    OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
if(WIN32)
  set(CPACK_GENERATOR ZIP)
  set(CPACK_PACKAGE_FILE_NAME cudaenv-${PROJECT_VERSION}-windows-x64)
else()
  set(CPACK_GENERATOR DEB)
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
endif()
include(CPack)
