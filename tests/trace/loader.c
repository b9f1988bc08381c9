/* Test program for `cudaenv trace`: dlopens each argument as given (a bare
 * name goes through the loader's search, a path is taken as is), the way
 * frameworks and ctypes load CUDA libraries. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char** argv) {
    int ok = 0;
    for (int i = 1; i < argc; ++i) {
        if (dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL)) ++ok;
        else fprintf(stderr, "loader: %s\n", dlerror());
    }
    printf("loader: %d of %d loaded\n", ok, argc - 1);
    return ok == argc - 1 ? 0 : 3;
}
