@echo off
rem cudaenv session shim for cmd.exe (generated; do not edit).
rem With this folder first on PATH, `cudaenv use 12.4` changes the calling session.
rem Read the rest as UTF-8 so non-ASCII paths survive; the code page is restored below.
for /f "tokens=2 delims=:." %%c in ('chcp') do set "__CUDAENV_CP=%%c"
>nul chcp 65001
for %%c in (@EVAL_COMMANDS@) do if /i "%~1"==%%c goto cudaenv_apply
@CUDAENV_EXE@ %*
set "__CUDAENV_RC=%ERRORLEVEL%"
goto cudaenv_done
:cudaenv_apply
rem The commands to apply go into a folder this call claims: md fails on one that
rem exists, and cmd sessions started in the same second draw the same %RANDOM%
rem numbers (cmd seeds them with the time), so a shared name would run another
rem session's commands.
set "__CUDAENV_TRIES=0"
:cudaenv_claim
set /a __CUDAENV_TRIES+=1
if %__CUDAENV_TRIES% gtr 50 goto cudaenv_no_temp
set "__CUDAENV_TMP=%TEMP%\cudaenv-%RANDOM%-%RANDOM%"
rem md sets ERRORLEVEL when it fails but leaves it as it was when it succeeds,
rem and Wine's cmd runs the right side of || either way: clear it first.
(call )
md "%__CUDAENV_TMP%" >nul 2>&1
if errorlevel 1 goto cudaenv_claim
set "CUDAENV_SHELL=cmd"
@CUDAENV_EXE@ %* > "%__CUDAENV_TMP%\apply.cmd"
set "__CUDAENV_RC=%ERRORLEVEL%"
set "CUDAENV_SHELL="
rem CALL expands percent signs once more, and the TEMP folder may hold one
rem (user names can): call the file by a relative name, from inside its folder.
if not "%__CUDAENV_RC%"=="0" goto cudaenv_clean
pushd "%__CUDAENV_TMP%"
call .\apply.cmd
popd
:cudaenv_clean
rd /s /q "%__CUDAENV_TMP%" >nul 2>&1
set "__CUDAENV_TMP="
set "__CUDAENV_TRIES="
goto cudaenv_done
:cudaenv_no_temp
>&2 echo cudaenv: error: cannot make a folder in the TEMP folder for the commands to apply
>&2 echo hint: set TEMP to a folder you can write
set "__CUDAENV_TMP="
set "__CUDAENV_TRIES="
set "__CUDAENV_RC=1"
:cudaenv_done
for /f %%c in ("%__CUDAENV_CP%") do >nul chcp %%c
set "__CUDAENV_CP="
rem The whole line is expanded before it runs: exit gets the saved status.
set "__CUDAENV_RC=" & exit /b %__CUDAENV_RC%
