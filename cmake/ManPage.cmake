# cmake -DEXE=<cudaenv> -DHELP2MAN=<help2man> -DGZIP=<gzip> -DOUT=<cudaenv.1.gz> -DWORK=<dir> -P ManPage.cmake
# The man page comes from the program's own help, so it cannot drift from
# `--help`: help2man turns `cudaenv --help` and `--version` into cudaenv.1, and
# every command's `cudaenv <command> --help` becomes a section COMMANDS.
execute_process(COMMAND ${EXE} --help OUTPUT_VARIABLE _help RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --help failed (${_rc})")
endif()
# CLI11 lists the commands under SUBCOMMANDS:, one per line: "  name   description".
string(REGEX REPLACE "^.*\nSUBCOMMANDS:\n" "" _subs "${_help}")
string(REGEX MATCHALL "(^|\n)  [a-z][a-z0-9-]*" _names "${_subs}")
set(_inc "[COMMANDS]\n")
foreach(_n IN LISTS _names)
  string(STRIP "${_n}" _n)
  execute_process(COMMAND ${EXE} ${_n} --help OUTPUT_VARIABLE _text RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${EXE} ${_n} --help failed (${_rc})")
  endif()
  # roff: a backslash is \e, and a line starting with . or ' is text only after \&.
  string(REPLACE "\\" "\\e" _text "${_text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" _text "${_text}")
  string(APPEND _inc ".SS \"cudaenv ${_n}\"\n.nf\n${_text}.fi\n")
endforeach()
string(APPEND _inc "[FILES]\n.TP\n.I $CUDAENV_ROOT, else \${XDG_DATA_HOME:-~/.local/share}/cudaenv\nthe store: config.toml, installed toolkits and cuDNNs, shims/, setup.toml\n")
string(APPEND _inc "[SEE ALSO]\nREADME.md and docs/ in /usr/share/doc/cudaenv.\n")
file(WRITE ${WORK}/cudaenv.h2m "${_inc}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --section 1 --source "cudaenv"
                        --name "side-by-side CUDA toolkit and cuDNN pairs, switched per shell or per project"
                        --include ${WORK}/cudaenv.h2m --output ${WORK}/cudaenv.1 ${EXE}
                RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "help2man failed (${_rc})")
endif()
# Debian wants man pages compressed with gzip -9n (no name, no time stamp).
execute_process(COMMAND ${GZIP} -9n -c ${WORK}/cudaenv.1 OUTPUT_FILE ${OUT} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "gzip failed (${_rc})")
endif()
