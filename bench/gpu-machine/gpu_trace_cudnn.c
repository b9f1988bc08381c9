/* For bench/gpu-machine/gpu_check.sh's trace section: dlopens libcudnn.so.9 by name (so
 * the loader's search decides which copy) and runs cudnnCreate on the GPU.
 * Built there with: cc -O2 -o gpu_trace_cudnn gpu_trace_cudnn.c -ldl */
#include <dlfcn.h>
#include <stdio.h>

typedef int (*create_fn)(void**);
typedef int (*destroy_fn)(void*);
typedef size_t (*version_fn)(void);

int main(int argc, char** argv) {
    const char* name = argc > 1 ? argv[1] : "libcudnn.so.9";
    void* lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
        fprintf(stderr, "dlopen %s: %s\n", name, dlerror());
        return 2;
    }
    version_fn version = (version_fn)dlsym(lib, "cudnnGetVersion");
    create_fn create = (create_fn)dlsym(lib, "cudnnCreate");
    destroy_fn destroy = (destroy_fn)dlsym(lib, "cudnnDestroy");
    if (!version || !create || !destroy) {
        fprintf(stderr, "missing cuDNN symbols\n");
        return 2;
    }
    void* handle = 0;
    int status = create(&handle);
    printf("cudnnGetVersion %zu cudnnCreate status %d\n", version(), status);
    if (status == 0) destroy(handle);
    return status == 0 ? 0 : 1;
}
