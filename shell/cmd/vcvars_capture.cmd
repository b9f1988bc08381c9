@echo off
rem `cudaenv use --msvc` (src/store/msvc.cpp): runs vcvarsall.bat for one
rem toolset in the clean environment cudaenv hands this cmd.exe, then writes
rem the environment it left to a file (`cudaenv-probe __environ`), which
rem cudaenv compares with the one it gave. Every path arrives in a variable,
rem never in a command line.
call "%CUDAENV_VCVARSALL%" x64 -vcvars_ver=%CUDAENV_VCVARS_VER% <nul
if errorlevel 1 exit /b 1
"%CUDAENV_PROBE%" __environ "%CUDAENV_ENV_OUT%"
