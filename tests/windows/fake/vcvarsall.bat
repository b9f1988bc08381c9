@echo off
rem Test-only stand-in for Visual Studio's VC\Auxiliary\Build\vcvarsall.bat
rem (tests/windows/msvc_win.py): `vcvarsall.bat x64 -vcvars_ver=14.38.33130`
rem sets what the real one sets for that toolset, the lists prepended to (and
rem CMake's folder appended to PATH, as the real one does), and fails like it
rem for a toolset that is not installed. Each run is logged in calls.log.
>> "%~dp0calls.log" echo %*
set "__t_arch=%~1"
set "__t_ver="
if /i "%~2"=="-vcvars_ver" set "__t_ver=%~3"
set "__t_a2=%~2"
if /i "%__t_a2:~0,12%"=="-vcvars_ver=" set "__t_ver=%__t_a2:~12%"
set "__t_a2="
if not "%__t_arch%"=="x64" goto bad_arch
for %%i in ("%~dp0..\..\..") do set "__t_inst=%%~fi"
if not exist "%__t_inst%\VC\Tools\MSVC\%__t_ver%\bin\Hostx64\x64\cl.exe" goto bad_ver
set "VSINSTALLDIR=%__t_inst%\"
set "VCINSTALLDIR=%__t_inst%\VC\"
set "VCToolsVersion=%__t_ver%"
set "VCToolsInstallDir=%__t_inst%\VC\Tools\MSVC\%__t_ver%\"
set "__VSCMD_PREINIT_PATH=%PATH%"
set "PATH=%__t_inst%\VC\Tools\MSVC\%__t_ver%\bin\Hostx64\x64;%__t_inst%\Common7\IDE\;%PATH%;%__t_inst%\Common7\IDE\CommonExtensions\Microsoft\CMake\CMake\bin"
set "INCLUDE=%__t_inst%\VC\Tools\MSVC\%__t_ver%\include;%INCLUDE%"
set "LIB=%__t_inst%\VC\Tools\MSVC\%__t_ver%\lib\x64;%LIB%"
set "LIBPATH=%__t_inst%\VC\Tools\MSVC\%__t_ver%\lib\x64;%LIBPATH%"
set "VSCMD_ARG_TGT_ARCH=x64"
set "VSCMD_ARG_HOST_ARCH=x64"
set "__t_arch="
set "__t_ver="
set "__t_inst="
exit /b 0
:bad_arch
echo [ERROR:vcvarsall.bat] Invalid argument found : %__t_arch%
set "__t_arch="
exit /b 1
:bad_ver
echo [ERROR:vcvars.bat] Toolset directory for version '%__t_ver%' was not found.
set "__t_arch="
set "__t_ver="
set "__t_inst="
exit /b 1
