function(cudaenv_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /utf-8 /permissive-)
    if(CUDAENV_WERROR)
      target_compile_options(${target} PRIVATE /WX)
    endif()
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                              -Wno-sign-conversion)
    if(CUDAENV_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
      # GCC 12 at -O3 takes std::string assignments of a literal for overlapping
      # memcpy calls (GCC bug 105329, a false -Wrestrict); GCC 13 does not.
      if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
        target_compile_options(${target} PRIVATE -Wno-restrict)
      endif()
    endif()
  endif()
endfunction()
