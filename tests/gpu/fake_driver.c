/* Test-only stand-ins for the NVIDIA driver's libcuda.so.1 and
 * libnvidia-ml.so.1: the few driver API and NVML calls `cudaenv-probe __gpus`
 * makes (nvidia/probe_gpus.cpp), answered from the environment:
 *   FAKEDRV_GPUS     "8.6:Fake RTX,6.1:NVIDIA GeForce GTX 1080" (none: cuInit says 100, no device)
 *   FAKEDRV_CUDA     cuDriverGetVersion's value (default 12020)
 *   FAKEDRV_VERSION  nvmlSystemGetDriverVersion's text (unset: NVML fails)
 * Built once as each name (tests/gpu/CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char* gpus(void) {
    const char* g = getenv("FAKEDRV_GPUS");
    return g ? g : "";
}

/* The n-th "cc:name" item of FAKEDRV_GPUS; 0 when there is none. */
static int item(int n, int* major, int* minor, char* name, int len) {
    const char* p = gpus();
    for (int i = 0; *p; ++i) {
        const char* end = strchr(p, ',');
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (i == n) {
            char buf[256] = {0};
            memcpy(buf, p, l < sizeof buf - 1 ? l : sizeof buf - 1);
            if (sscanf(buf, "%d.%d", major, minor) != 2) return 0;
            const char* colon = strchr(buf, ':');
            if (name) snprintf(name, (size_t)len, "%s", colon ? colon + 1 : "Fake GPU");
            return 1;
        }
        p = end ? end + 1 : p + l;
    }
    return 0;
}

static int count(void) {
    int n = 0, a, b;
    while (item(n, &a, &b, NULL, 0)) ++n;
    return n;
}

int cuInit(unsigned flags) { (void)flags; return count() ? 0 : 100; }
int cuDriverGetVersion(int* v) {
    const char* e = getenv("FAKEDRV_CUDA");
    *v = e ? atoi(e) : 12020;
    return 0;
}
int cuDeviceGetCount(int* n) { *n = count(); return 0; }
int cuDeviceGet(int* dev, int ordinal) { *dev = ordinal; return ordinal < count() ? 0 : 101; }
int cuDeviceGetName(char* name, int len, int dev) {
    int a, b;
    return item(dev, &a, &b, name, len) ? 0 : 101;
}
int cuDeviceGetAttribute(int* v, int attr, int dev) {
    int major, minor;
    if (!item(dev, &major, &minor, NULL, 0)) return 101;
    if (attr == 75) *v = major;
    else if (attr == 76) *v = minor;
    else return 1;
    return 0;
}

int nvmlInit_v2(void) { return getenv("FAKEDRV_VERSION") ? 0 : 9; }
int nvmlShutdown(void) { return 0; }
int nvmlSystemGetDriverVersion(char* buf, unsigned len) {
    snprintf(buf, len, "%s", getenv("FAKEDRV_VERSION"));
    return 0;
}
