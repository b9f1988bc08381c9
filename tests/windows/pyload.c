/* Test-only stand-in for Python 3.8+ importing an extension module on
 * Windows: LoadLibraryExW(<module>, NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
 * LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR), as CPython's importer does, so PATH is
 * not searched for the module's dependencies. With --hook it first does what
 * python/cudaenv_dll_hook.py does: AddDllDirectory for each folder of
 * CUDAENV_DLL_DIRS (';'-separated, a quoted part may hold ';'). Prints where
 * cudnn64_8.dll came from, or Windows' error. --plain loads it with
 * LoadLibraryW and no flags instead (PATH is searched), as a control.
 *   python.exe [--hook|--plain] <module.pyd> */
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>
#include <windows.h>

static void print_utf8(const char* label, const wchar_t* w) {
    char buf[8192];
    int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, sizeof buf, NULL, NULL);
    printf("%s%s\n", label, n > 0 ? buf : "?");
}

static int add_hook_dirs(void) {
    static wchar_t value[32768];
    DWORD n = GetEnvironmentVariableW(L"CUDAENV_DLL_DIRS", value, 32768);
    if (n == 0 || n >= 32768) return 0;
    int added = 0, quoted = 0;
    wchar_t entry[32768];
    size_t len = 0;
    for (DWORD i = 0; i <= n; ++i) {
        wchar_t c = i < n ? value[i] : L';';
        if (c == L'"') {
            quoted = !quoted;
            continue;
        }
        if (c == L';' && !quoted) {
            entry[len] = 0;
            DWORD attr = len ? GetFileAttributesW(entry) : INVALID_FILE_ATTRIBUTES;
            if (attr != INVALID_FILE_ATTRIBUTES && (attr & FILE_ATTRIBUTE_DIRECTORY)) {
                if (AddDllDirectory(entry)) ++added;
                else printf("pyload: AddDllDirectory failed: error %lu\n", GetLastError());
            }
            len = 0;
            continue;
        }
        entry[len++] = c;
    }
    printf("pyload: hook added %d folders\n", added);
    return added;
}

int wmain(int argc, wchar_t** argv) {
    int hook = argc > 2 && wcscmp(argv[1], L"--hook") == 0;
    int plain = argc > 2 && wcscmp(argv[1], L"--plain") == 0;
    int opt = hook || plain;
    if (argc < 2 + opt) {
        fprintf(stderr, "usage: python.exe [--hook|--plain] <module.pyd>\n");
        return 2;
    }
    if (hook) add_hook_dirs();
    HMODULE m = plain ? LoadLibraryW(argv[2])
                      : LoadLibraryExW(argv[1 + opt], NULL, LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR);
    if (!m) {
        printf("pyload: error %lu\n", GetLastError());
        return 3;
    }
    wchar_t path[4096];
    HMODULE dnn = GetModuleHandleW(L"cudnn64_8.dll");
    if (!dnn || !GetModuleFileNameW(dnn, path, 4096)) {
        printf("pyload: loaded, but no cudnn64_8.dll in the process\n");
        return 4;
    }
    print_utf8("pyload: cudnn64_8.dll from ", path);
    HMODULE rt = GetModuleHandleW(L"cudart64_110.dll");
    if (rt && GetModuleFileNameW(rt, path, 4096)) print_utf8("pyload: cudart64_110.dll from ", path);
    return 0;
}
