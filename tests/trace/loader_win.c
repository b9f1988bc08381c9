/* Windows test program for `cudaenv trace`: LoadLibraryW of each argument
 * (a bare DLL name goes through Windows' search: the application's folder,
 * System32, ..., PATH). */
#include <stdio.h>
#include <windows.h>

int wmain(int argc, wchar_t** argv) {
    int ok = 0;
    for (int i = 1; i < argc; ++i) {
        if (LoadLibraryW(argv[i])) ++ok;
        else fprintf(stderr, "loader: %ls: error %lu\n", argv[i], GetLastError());
    }
    printf("loader: %d of %d loaded\n", ok, argc - 1);
    return ok == argc - 1 ? 0 : 3;
}
