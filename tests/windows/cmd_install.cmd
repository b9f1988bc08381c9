@echo off
rem `cudaenv install <zip>` of a Windows-layout cuDNN archive into a store in a
rem hostile folder, then `list` shows it and its DLLs are in the store.
rem   cmd /d /c cmd_install.cmd <cudaenv.exe> <work folder> <cudnn zip>
setlocal
set "EXE=%~1"
set "WORK=%~2"
set "ZIP=%~3"
if exist "%WORK%" rmdir /s /q "%WORK%"
mkdir "%WORK%"
set "CUDAENV_ROOT=%WORK%\store %CUDAENV_T_HOSTILE%"
"%EXE%" install "%ZIP%"
if errorlevel 1 goto fail_install
"%EXE%" list > "%WORK%\list.txt"
if errorlevel 1 goto fail_list
findstr /c:"8.9.7" "%WORK%\list.txt" > nul
if errorlevel 1 goto fail_list
dir /s /b "%CUDAENV_ROOT%\cudnn" > "%WORK%\files.txt"
findstr /i /c:"cudnn_ops_infer64_8.dll" "%WORK%\files.txt" > nul
if errorlevel 1 goto fail_files
rem cuDNN 8.9 needs zlibwapi.dll, which the zip lacks: install put cudaenv's beside the DLLs.
if not "%CUDAENV_T_ZLIBWAPI%"=="1" goto zlib_done
findstr /i /c:"8.9.7_cuda11\bin\zlibwapi.dll" "%WORK%\files.txt" > nul
if errorlevel 1 goto fail_zlib
:zlib_done
echo ok: installed cuDNN 8.9.7 from the zip
echo PASS
exit /b 0
:fail_install
echo FAIL: cudaenv install
exit /b 1
:fail_list
echo FAIL: cudaenv list does not show 8.9.7
type "%WORK%\list.txt"
exit /b 1
:fail_zlib
echo FAIL: zlibwapi.dll is not beside the cuDNN 8.9 DLLs
type "%WORK%\files.txt"
exit /b 1
:fail_files
echo FAIL: the DLLs are not in the store
type "%WORK%\files.txt"
exit /b 1
