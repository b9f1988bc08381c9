@echo off
rem The tool shim as nvcc.exe: `cudaenv rehash` puts it in <store>\shims, and run
rem as nvcc it starts the active pair's own bin\nvcc.exe with its arguments and
rem passes the exit status back. The "real" nvcc.exe here is a copy of cudaenv.exe,
rem so what it prints shows that it ran, with the pair's environment.
rem   cmd /d /c cmd_shim.cmd <cudaenv.exe> <work folder>
setlocal
set "EXE=%~1"
set "WORK=%~2"
if exist "%WORK%" rmdir /s /q "%WORK%"
mkdir "%WORK%"
set "CUDAENV_ROOT=%WORK%\store %CUDAENV_T_HOSTILE%"
set "TK=%WORK%\%CUDAENV_T_HOSTILE%\CUDA\v11.8"
mkdir "%TK%\bin"
copy /y "%EXE%" "%TK%\bin\nvcc.exe" > nul
type nul > "%TK%\bin\cudart64_110.dll"
> "%TK%\version.json" echo {"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}
"%EXE%" add "%TK%" > nul
if errorlevel 1 goto fail_setup
"%EXE%" rehash
if errorlevel 1 goto fail_setup
if not exist "%CUDAENV_ROOT%\shims\nvcc.exe" goto fail_setup
set "CUDAENV_VERSION=11.8"
"%CUDAENV_ROOT%\shims\nvcc.exe" current > "%WORK%\current.txt"
if errorlevel 1 goto fail_run
findstr /c:"11.8" "%WORK%\current.txt" > nul
if errorlevel 1 goto fail_run
echo ok: nvcc.exe shim ran the pair's nvcc.exe
"%CUDAENV_ROOT%\shims\nvcc.exe" no-such-command 2> nul
if not errorlevel 2 goto fail_status
echo ok: exit status passed through
echo PASS
exit /b 0
:fail_setup
echo FAIL: add / rehash did not make shims\nvcc.exe
exit /b 1
:fail_run
echo FAIL: the shim did not run the pair's nvcc.exe
type "%WORK%\current.txt"
exit /b 1
:fail_status
echo FAIL: exit status
exit /b 1
