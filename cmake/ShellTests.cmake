# One CTest test per shell that runs on POSIX, for the shells the built binary's
# table has (`cudaenv __shells`, src/shell/shells.cpp): CTest asks the binary
# when it loads the tests (as gtest_discover_tests does), so a new shell's row
# brings its tests without a list here.
#   cudaenv_shell_tests(<prefix> LABELS <labels...> TIMEOUT <s> [SKIP_RETURN_CODE <rc>]
#                       [ENVIRONMENT <var=value>] COMMAND <args...>)
# registers <prefix><shell> running <args>, each @SHELL@ in them replaced by the shell.
function(cudaenv_shell_tests prefix)
  cmake_parse_arguments(PARSE_ARGV 1 a "" "TIMEOUT;SKIP_RETURN_CODE;ENVIRONMENT" "LABELS;COMMAND")
  set(args "")
  foreach(arg IN LISTS a_COMMAND)
    string(APPEND args " [==[${arg}]==]")
  endforeach()
  set(props "LABELS \"${a_LABELS}\" TIMEOUT ${a_TIMEOUT}")
  if(DEFINED a_SKIP_RETURN_CODE)
    string(APPEND props " SKIP_RETURN_CODE ${a_SKIP_RETURN_CODE}")
  endif()
  if(DEFINED a_ENVIRONMENT)
    string(APPEND props " ENVIRONMENT [==[${a_ENVIRONMENT}]==]")
  endif()
  set(file ${CMAKE_CURRENT_BINARY_DIR}/${prefix}shell_tests.cmake)
  file(GENERATE OUTPUT ${file} CONTENT "# Written by cmake/ShellTests.cmake.
execute_process(COMMAND [==[$<TARGET_FILE:cudaenv>]==] __shells OUTPUT_VARIABLE rows RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  # No binary yet (or a broken one): one test that fails and says so.
  add_test(${prefix}shells [==[${CMAKE_COMMAND}]==] -E echo [==[FAIL: cudaenv __shells failed: build cudaenv first]==])
  set_tests_properties(${prefix}shells PROPERTIES FAIL_REGULAR_EXPRESSION FAIL:)
  return()
endif()
string(REPLACE \"\\n\" \";\" rows \"\${rows}\")
foreach(row IN LISTS rows)
  if(row MATCHES \"^([^\\t]+)\\t[^\\t]*\\t(posix|both)\\t\")
    set(sh \${CMAKE_MATCH_1})
    set(args${args})
    list(TRANSFORM args REPLACE @SHELL@ \${sh})
    add_test(${prefix}\${sh} \${args})
    set_tests_properties(${prefix}\${sh} PROPERTIES ${props})
  endif()
endforeach()
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${file})
endfunction()
