@echo off
rem `cudaenv use --msvc` (src/store/msvc.cpp): runs vcvarsall.bat for one
rem toolset in the clean environment cudaenv hands this cmd.exe, and writes the
rem environment before and after it to two files (`cudaenv-probe __environ`):
rem what differs is vcvarsall's, whatever cmd.exe or the system adds to every
rem process. Every path arrives in a variable, never in a command line.
"%CUDAENV_PROBE%" __environ "%CUDAENV_ENV_BEFORE%"
if errorlevel 1 exit /b 1
call "%CUDAENV_VCVARSALL%" x64 -vcvars_ver=%CUDAENV_VCVARS_VER% <nul
if errorlevel 1 exit /b 1
"%CUDAENV_PROBE%" __environ "%CUDAENV_ENV_OUT%"
