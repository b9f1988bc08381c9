# cmake -DEXE=<cudaenv> [-DEMULATOR=<runner;args>] -DOS=<posix|windows> -DOUT=<folder> -DSTAMP=<file>
#       -P Completions.cmake
# Writes the completion script of every shell whose users run it on OS where a
# package installs it, below OUT (OUT is share/): the shells and their folders
# come from `cudaenv __shells` (src/shell/shells.cpp), so a new shell's row is
# all the packaging needs.
execute_process(COMMAND ${EMULATOR} ${EXE} __shells OUTPUT_VARIABLE _rows RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${EXE} __shells failed (${_rc}): ${_err}")
endif()
string(REPLACE "\r" "" _rows "${_rows}")
string(REPLACE "\n" ";" _rows "${_rows}")
file(REMOVE_RECURSE ${OUT})
foreach(_row IN LISTS _rows)
  if(NOT _row MATCHES "^([^\t]+)\t[^\t]*\t([^\t]*)\t(.*)$")
    continue()
  endif()
  set(_shell "${CMAKE_MATCH_1}")
  set(_os "${CMAKE_MATCH_2}")
  set(_file "${CMAKE_MATCH_3}")
  if("${_file}" STREQUAL "" OR NOT ("${_os}" STREQUAL "both" OR "${_os}" STREQUAL "${OS}"))
    continue()
  endif()
  get_filename_component(_dir ${OUT}/${_file} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
  execute_process(COMMAND ${EMULATOR} ${EXE} completions ${_shell} OUTPUT_FILE ${OUT}/${_file}
                  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    file(REMOVE ${OUT}/${_file})
    message(FATAL_ERROR "${EXE} completions ${_shell} failed (${_rc}): ${_err}")
  endif()
endforeach()
file(TOUCH ${STAMP})
