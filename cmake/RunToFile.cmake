# cmake -DOUT=<file> -DARGS="<args>" [-DEMULATOR=<runner;args>] -DEXE=<program> -P RunToFile.cmake
# Runs a program built here and keeps its stdout in OUT (replaced only when it
# succeeds): the completion scripts come from the binary itself.
separate_arguments(_args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${EMULATOR} ${EXE} ${_args} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${EXE} ${ARGS} failed (${_rc}): ${_err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})
