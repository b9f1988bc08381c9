@echo off
rem The pair's variables onto the job's environment on Windows runners: a step
rem of ../action.yml (shell: cmd) after the install step of cudaenv-action.sh.
rem It runs in cmd, not in Git Bash, because `export github-env` writes the whole
rem PATH it sees, and Git Bash puts Git's own folders (mingw64\bin, usr\bin, with
rem their link.exe and find.exe) at the front of its PATH: in cmd, PATH is the
rem job's, and later steps get exactly it with the pair's folders first.
rem Inputs: CUDAENV_ACTION_PAIR (the install step's `pair` output), INPUT_CUDAENV
rem (a Windows path; default: cudaenv on PATH), CUDAENV_ROOT, GITHUB_ENV.
rem tests/windows/action_win.py runs it under Wine.
setlocal
if not defined CUDAENV_ACTION_PAIR (
  echo ::error::cudaenv action: the install step gave no pair
  exit /b 1
)
set "CUDAENV_ACTION_PROGRAM=cudaenv"
if defined INPUT_CUDAENV set "CUDAENV_ACTION_PROGRAM=%INPUT_CUDAENV%"
"%CUDAENV_ACTION_PROGRAM%" export github-env "%CUDAENV_ACTION_PAIR%" -o "%GITHUB_ENV%"
exit /b %ERRORLEVEL%
