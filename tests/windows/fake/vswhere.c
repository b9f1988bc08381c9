/* Test-only stand-in for Visual Studio's vswhere.exe: prints the JSON of the
 * file vswhere.json beside it, as `vswhere -format json` prints the
 * installations, and the arguments it was given to vswhere.args (the test
 * checks that Build Tools are asked for: -products *). */
#include <stdio.h>
#include <wchar.h>
#include <windows.h>

int wmain(int argc, wchar_t** argv) {
    wchar_t path[4096];
    DWORD n = GetModuleFileNameW(NULL, path, 4096);
    if (n == 0 || n >= 4096 - 16) return 2;
    wchar_t* slash = wcsrchr(path, L'\\');
    if (!slash) return 2;
    wcscpy(slash + 1, L"vswhere.args");
    FILE* a = _wfopen(path, L"w");
    if (a) {
        for (int i = 1; i < argc; ++i) fprintf(a, "%ls\n", argv[i]);
        fclose(a);
    }
    wcscpy(slash + 1, L"vswhere.json");
    FILE* f = _wfopen(path, L"rb");
    if (!f) return 1;
    char buf[4096];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, got, stdout);
    fclose(f);
    return 0;
}
