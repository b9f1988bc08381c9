@echo off
rem cudaenv in cmd.exe: `cudaenv use` through the session shim <store>\shims\cudaenv.cmd
rem (written by `cudaenv init cmd`) changes this session's PATH and CUDA_PATH, and
rem `cudaenv deactivate` restores them, with hostile folder names everywhere.
rem   cmd /d /c cmd_use.cmd <cudaenv.exe> <work folder>
rem (Errors are checked with `if errorlevel 1` on the next line, not `||`: Wine 8's
rem cmd runs the right side of || even after success.)
rem CUDAENV_T_HOSTILE holds & ^ ( ) %% ! spaces and non-ASCII; it comes through the
rem environment so no command line has to quote it. No ( ) blocks below: a ")"
rem in an expanded value would end them.
setlocal
set "EXE=%~1"
set "WORK=%~2"
if exist "%WORK%" rmdir /s /q "%WORK%"
mkdir "%WORK%"

rem The store, TEMP (where the shim writes its script) and the toolkit all in hostile folders.
set "CUDAENV_ROOT=%WORK%\store %CUDAENV_T_HOSTILE%"
set "TEMP=%WORK%\tmp %CUDAENV_T_HOSTILE%"
mkdir "%TEMP%"
set "TK=%WORK%\%CUDAENV_T_HOSTILE%\CUDA\v11.8"
set "TK13=%WORK%\Program Files (x86)\CUDA\v13.0"
set "DNN=%WORK%\%CUDAENV_T_HOSTILE%\cudnn-windows-x86_64-8.9.7.29_cuda11-archive"

mkdir "%TK%\bin"
type nul > "%TK%\bin\cudart64_110.dll"
type nul > "%TK%\bin\nvcc.exe"
> "%TK%\version.json" echo {"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}
mkdir "%TK13%\bin\x64"
type nul > "%TK13%\bin\x64\cudart64_13.dll"
> "%TK13%\version.json" echo {"cuda": {"name": "CUDA SDK", "version": "13.0.1"}}
mkdir "%DNN%\bin"
mkdir "%DNN%\include"
type nul > "%DNN%\bin\cudnn64_8.dll"
> "%DNN%\include\cudnn_version.h" echo #define CUDNN_MAJOR 8
>> "%DNN%\include\cudnn_version.h" echo #define CUDNN_MINOR 9
>> "%DNN%\include\cudnn_version.h" echo #define CUDNN_PATCHLEVEL 7

"%EXE%" add "%TK%"
if errorlevel 1 goto fail_add
"%EXE%" add "%TK13%"
if errorlevel 1 goto fail_add
"%EXE%" add "%DNN%"
if errorlevel 1 goto fail_add
rem Writes <store>\shims\cudaenv.cmd (and .ps1); the AutoRun line itself is cmd_autorun.cmd's.
"%EXE%" init cmd > nul
if errorlevel 1 goto fail_init
if not exist "%CUDAENV_ROOT%\shims\cudaenv.cmd" goto fail_init

set "SHIMS=%CUDAENV_ROOT%\shims"
set "KEEP=%WORK%\keep me (x) & y"
set "PATH=%SHIMS%;%SystemRoot%\system32;C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6\BIN\;%SystemRoot%;%KEEP%"
set "PATH0=%PATH%"
set "CUDA_PATH=C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.6"
set "CUDA_PATH0=%CUDA_PATH%"

rem --- use 11.8: PATH and CUDA_PATH of this session change.
call cudaenv use 11.8
if errorlevel 1 goto fail_use
set "EXPECT=%TK%\bin;%DNN%\bin;%SHIMS%;%SystemRoot%\system32;%SystemRoot%;%KEEP%"
if not "%PATH%"=="%EXPECT%" goto fail_use_path
if not "%CUDA_PATH%"=="%TK%" goto fail_use_cuda_path
if not "%CUDA_PATH_V11_8%"=="%TK%" goto fail_use_cuda_path
if not "%CUDNN_PATH%"=="%DNN%" goto fail_use_cuda_path
rem CUDAENV_VERSION is the exact pair `use` activated (docs/specs.md).
if not "%CUDAENV_VERSION%"=="11.8.0+8.9.7" goto fail_use_cuda_path
rem The pair's DLL folders for Python's DLL hook (docs/python.md).
if not defined CUDAENV_DLL_DIRS goto fail_use_cuda_path
if defined __CUDAENV_TMP goto fail_leftover
if defined __CUDAENV_CP goto fail_leftover
if defined CUDAENV_SHELL goto fail_leftover
echo ok: use 11.8

rem --- use 13: CUDA 13 keeps its DLLs in bin\x64, which goes first.
call cudaenv use 13
if errorlevel 1 goto fail_use
set "EXPECT=%TK13%\bin\x64;%TK13%\bin;%SHIMS%;%SystemRoot%\system32;%SystemRoot%;%KEEP%"
if not "%PATH%"=="%EXPECT%" goto fail_use_path
if not "%CUDA_PATH%"=="%TK13%" goto fail_use_cuda_path
if defined CUDNN_PATH goto fail_use_cuda_path
if defined CUDA_PATH_V11_8 goto fail_use_cuda_path
echo ok: use 13

rem --- a spec that matches nothing: an error, and nothing changes.
set "BEFORE=%PATH%"
call cudaenv use 99.9 2> "%WORK%\err.txt"
if not errorlevel 1 goto fail_bad_spec
if not "%PATH%"=="%BEFORE%" goto fail_bad_spec
findstr /c:"cudaenv: error:" "%WORK%\err.txt" > nul
if errorlevel 1 goto fail_bad_spec
echo ok: use 99.9 fails and changes nothing

rem --- deactivate: everything back byte for byte.
call cudaenv deactivate
if errorlevel 1 goto fail_deactivate
if not "%PATH%"=="%PATH0%" goto fail_deactivate
if not "%CUDA_PATH%"=="%CUDA_PATH0%" goto fail_deactivate
if defined CUDA_PATH_V11_8 goto fail_deactivate
if defined CUDAENV_VERSION goto fail_deactivate
if defined CUDAENV_DLL_DIRS goto fail_deactivate
if defined __CUDAENV_STATE goto fail_deactivate
echo ok: deactivate

rem --- other commands pass through the shim with their exit status.
call cudaenv --version > nul
if errorlevel 1 goto fail_passthrough
call cudaenv no-such-command 2> nul
if not errorlevel 1 goto fail_passthrough
echo ok: pass-through

rem --- `env --shell cmd` is what the shim evaluates: the same result when called directly.
"%EXE%" env 11.8 --shell cmd > "%WORK%\env 11.8.cmd"
if errorlevel 1 goto fail_env
call "%%WORK%%\env 11.8.cmd"
if not "%CUDA_PATH%"=="%TK%" goto fail_env
echo ok: env --shell cmd
echo PASS
exit /b 0

:fail_add
echo FAIL: cudaenv add
exit /b 1
:fail_init
echo FAIL: cudaenv init cmd did not write the session shim
exit /b 1
:fail_use
echo FAIL: cudaenv use exited with an error
exit /b 1
:fail_use_path
echo FAIL: PATH after use
set PATH
echo expected:
set EXPECT
exit /b 1
:fail_use_cuda_path
echo FAIL: CUDA_PATH / CUDNN_PATH / CUDAENV_VERSION after use
set CUD
exit /b 1
:fail_leftover
echo FAIL: the shim left its own variables behind
set __CUDAENV
exit /b 1
:fail_bad_spec
echo FAIL: use 99.9
type "%WORK%\err.txt"
exit /b 1
:fail_deactivate
echo FAIL: deactivate did not restore
set PATH
set CUD
exit /b 1
:fail_passthrough
echo FAIL: pass-through commands
exit /b 1
:fail_env
echo FAIL: env --shell cmd
exit /b 1
