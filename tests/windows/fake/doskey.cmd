@rem Test-only stand-in for doskey.exe (Wine has none, and doskey macros only act
@rem on typed input anyway): remembers the macro the AutoRun line defines.
@rem `doskey cudaenv="<shim>" $*` splits at = and spaces: %1 name, %~2 the shim.
@set "CUDAENV_T_NAME=%~1"
@set "CUDAENV_T_SHIM=%~2"
@set "CUDAENV_T_REST=%~3"
@set "CUDAENV_T_COUNT=%CUDAENV_T_COUNT%x"
