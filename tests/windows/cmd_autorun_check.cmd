@echo off
rem Runs in the cmd process that ran the AutoRun line twice (see cmd_autorun.cmd).
if not "%CUDAENV_CMD_INIT%"=="1" goto fail_guard
if not "%CUDAENV_T_COUNT%"=="x" goto fail_guard
echo ok: AutoRun line ran once, CUDAENV_CMD_INIT guards a second run
if not "%CUDAENV_T_NAME%"=="cudaenv" goto fail_macro
if not "%CUDAENV_T_SHIM%"=="%CUDAENV_ROOT%\shims\cudaenv.cmd" goto fail_macro
if not "%CUDAENV_T_REST%"=="$*" goto fail_macro
if not exist "%CUDAENV_T_SHIM%" goto fail_macro
echo ok: doskey macro cudaenv names the session shim
rem What the macro does when `cudaenv use 11.8` is typed. (The %% keep CALL's second
rem expansion pass from expanding a %% in the store path.)
call "%%CUDAENV_T_SHIM%%" use 11.8
if errorlevel 1 goto fail_use
if not "%CUDA_PATH%"=="%TK%" goto fail_use
set "EXPECT=%TK%\bin;%~dp0fake;%SystemRoot%\system32;%SystemRoot%"
if not "%PATH%"=="%EXPECT%" goto fail_use
echo ok: the macro's shim switched this session
echo PASS
exit /b 0

:fail_guard
echo FAIL: the AutoRun line did not run exactly once
set CUDAENV_
exit /b 1
:fail_macro
echo FAIL: the doskey macro
set CUDAENV_T_
set CUDAENV_ROOT
exit /b 1
:fail_use
echo FAIL: use 11.8 through the macro's shim
set PATH
set CUDA
exit /b 1
