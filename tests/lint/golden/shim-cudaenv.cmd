@echo off
rem cudaenv session shim for cmd.exe (generated; do not edit).
rem With this folder first on PATH, `cudaenv use 12.4` changes the calling session.
rem Read the rest as UTF-8 so non-ASCII paths survive; the code page is restored below.
for /f "tokens=2 delims=:." %%c in ('chcp') do set "__CUDAENV_CP=%%c"
>nul chcp 65001
for %%c in ("use" "shell" "deactivate") do if /i "%~1"==%%c goto cudaenv_apply
"/opt/cudaenv/bin/cudaenv" %*
set "__CUDAENV_RC=%ERRORLEVEL%"
goto cudaenv_done
:cudaenv_apply
set "__CUDAENV_NAME=cudaenv-%RANDOM%-%RANDOM%.cmd"
set "__CUDAENV_TMP=%TEMP%\%__CUDAENV_NAME%"
set "CUDAENV_SHELL=cmd"
"/opt/cudaenv/bin/cudaenv" %* > "%__CUDAENV_TMP%"
set "__CUDAENV_RC=%ERRORLEVEL%"
set "CUDAENV_SHELL="
rem CALL expands percent signs once more, and the TEMP folder may hold one
rem (user names can): call the file by its name alone (digits), from inside TEMP.
if not "%__CUDAENV_RC%"=="0" goto cudaenv_clean
pushd "%TEMP%"
call "%__CUDAENV_NAME%"
popd
:cudaenv_clean
del "%__CUDAENV_TMP%" >nul 2>&1
set "__CUDAENV_TMP="
set "__CUDAENV_NAME="
:cudaenv_done
for /f %%c in ("%__CUDAENV_CP%") do >nul chcp %%c
set "__CUDAENV_CP="
rem The whole line is expanded before it runs: exit gets the saved status.
set "__CUDAENV_RC=" & exit /b %__CUDAENV_RC%
