@echo off
rem The line `cudaenv init cmd` prints for HKCU\Software\Microsoft\Command Processor\AutoRun,
rem run the way cmd.exe runs AutoRun: as a command line (not a batch file) of a new cmd.
rem Wine's cmd does not read AutoRun, so the line is handed to `cmd /d /c` itself,
rem twice (the guard must stop the second), then cmd_autorun_check.cmd checks the
rem session in that same cmd process.
rem   cmd /d /c cmd_autorun.cmd <cudaenv.exe> <work folder>
setlocal
set "EXE=%~1"
set "WORK=%~2"
if exist "%WORK%" rmdir /s /q "%WORK%"
mkdir "%WORK%"
set "CUDAENV_ROOT=%WORK%\store %CUDAENV_T_HOSTILE_NOPCT%"
set "TEMP=%WORK%\tmp %CUDAENV_T_HOSTILE%"
mkdir "%TEMP%"
set "TK=%WORK%\%CUDAENV_T_HOSTILE%\v11.8"
mkdir "%TK%\bin"
type nul > "%TK%\bin\cudart64_110.dll"
> "%TK%\version.json" echo {"cuda": {"name": "CUDA SDK", "version": "11.8.0"}}
"%EXE%" add "%TK%" > nul
if errorlevel 1 goto fail_add
"%EXE%" init cmd > "%WORK%\autorun.txt"
if errorlevel 1 goto fail_init
rem The line is UTF-8 (a non-ASCII store path): read it in code page 65001.
for /f "tokens=2 delims=:." %%c in ('chcp') do set "CP=%%c"
chcp 65001 > nul
set /p AUTORUN=< "%WORK%\autorun.txt"
chcp %CP% > nul
set "CUDAENV_CMD_INIT="
set "CUDAENV_T_COUNT="
set "PATH=%~dp0fake;%SystemRoot%\system32;%SystemRoot%"
set "CHECK=%~dp0cmd_autorun_check.cmd"
rem Delayed expansion puts the line into the child's command line after this
rem line was parsed, so its & and ( ) are the child's to read, as in AutoRun.
setlocal EnableDelayedExpansion
cmd /d /c !AUTORUN! ^& !AUTORUN! ^& call "!CHECK!"
exit /b %ERRORLEVEL%

:fail_add
echo FAIL: cudaenv add
exit /b 1
:fail_init
echo FAIL: cudaenv init cmd
exit /b 1
