/* Test-only stand-in for MSVC's cl.exe (tests/windows/msvc_win.py): run
 * bare, it prints cl.exe's banner on stderr with the version of the toolset
 * folder it sits in (...\VC\Tools\MSVC\14.38.33130\bin\Hostx64\x64\cl.exe:
 * Version 19.38.33130), as doctor's host_compiler topic reads it. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

int main(void) {
    char path[4096];
    DWORD n = GetModuleFileNameA(NULL, path, sizeof path);
    if (n == 0 || n >= sizeof path) return 2;
    const char* at = strstr(path, "\\MSVC\\14.");
    if (!at) return 2;
    at += strlen("\\MSVC\\14.");
    char rest[64];
    size_t len = strcspn(at, "\\");
    if (len >= sizeof rest) return 2;
    memcpy(rest, at, len);
    rest[len] = 0;
    fprintf(stderr, "Microsoft (R) C/C++ Optimizing Compiler Version 19.%s for x64\n", rest);
    fprintf(stderr, "Copyright (C) Microsoft Corporation.  All rights reserved.\n\nusage: cl [ option... ] filename... [ /link linkoption... ]\n");
    return 0;
}
