/* Test program for `cudaenv trace`: linked against libcudnn.so.9 and
 * libcudart.so.12 (DT_NEEDED), so the loader maps them before main. Built
 * three times: with no search path of its own, with DT_RUNPATH and with
 * DT_RPATH ($ORIGIN/other). */
#include <stdio.h>

int cudaRuntimeGetVersion(int*);
size_t cudnnGetVersion(void);

int main(void) {
    int rt = 0;
    cudaRuntimeGetVersion(&rt);
    printf("needed: cudart %d cudnn %zu\n", rt, cudnnGetVersion());
    return 0;
}
