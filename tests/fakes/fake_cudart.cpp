// Test-only fake of the CUDA runtime (libcudart.so.N): the same C ABI for the
// calls `cudaenv check` makes. "Device" memory is host memory; events read a
// steady clock. Behaviour is chosen by environment variables:
//   FAKECUDA_RUNTIME_VERSION  value of cudaRuntimeGetVersion (default: built-in)
//   FAKECUDA_RUNTIME_ERROR    error cudaRuntimeGetVersion returns (e.g. 35)
//   FAKECUDA_DRIVER_VERSION   value of cudaDriverGetVersion (default 13000; 0: no driver)
//   FAKECUDA_DEVICE_ERROR     error cudaGetDeviceCount returns
//   FAKECUDA_DEVICES          device count (default 1)
//   FAKECUDA_CC               compute capability "major.minor" (default 9.0)
//   FAKECUDA_MALLOC_ERROR     error cudaMalloc returns
//   FAKECUDA_CRASH / FAKECUDA_HANG = <function name>
//   FAKECUDA_LOAD_SLEEP_MS    sleep this long when the library is loaded (a
//                             real runtime plus driver take about a second)
//   FAKECUDA_FREE_LOG         append "<unix ms>" to this file at each cudaFree of memory
//   FAKECUDA_RESET_SLEEP_MS   cudaDeviceReset takes this long (a real context's
//                             teardown takes tens of milliseconds)
//   FAKECUDA_QUEUES_LOG       append the CUDA_DEVICE_MAX_CONNECTIONS the process
//                             has ("unset" if none) to this file as it asks
//                             for the devices (where the real driver reads it)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "fault.hpp"

#ifndef FAKE_RUNTIME_VERSION
#define FAKE_RUNTIME_VERSION 12060
#endif

namespace {
[[maybe_unused]] const bool slept_on_load = [] {
    if (int ms = fake::env_int("FAKECUDA_LOAD_SLEEP_MS", 0)) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return true;
}();
long long epoch = 0;
struct Event {
    std::chrono::steady_clock::time_point t;
};
// Stream capture: work the fake cuDNN is asked to do on a capturing stream is
// recorded (fakecuda_capture) and done when the graph is launched.
using Work = std::pair<void (*)(void*), void*>;
struct Graph {
    std::vector<Work> work;
};
struct Stream {
    Graph* capture = nullptr;
};
}  // namespace

#define FAULT(fn) fake::maybe_crash_or_hang("FAKECUDA", fn)

extern "C" {

long long fakecuda_epoch() { return epoch; }

int cudaRuntimeGetVersion(int* v) {
    FAULT("cudaRuntimeGetVersion");
    if (int e = fake::env_int("FAKECUDA_RUNTIME_ERROR", 0)) return e;
    *v = fake::env_int("FAKECUDA_RUNTIME_VERSION", FAKE_RUNTIME_VERSION);
    return 0;
}

int cudaDriverGetVersion(int* v) {
    FAULT("cudaDriverGetVersion");
    *v = fake::env_int("FAKECUDA_DRIVER_VERSION", 13000);
    return 0;
}

int cudaGetDeviceCount(int* n) {
    FAULT("cudaGetDeviceCount");
    if (const char* log = std::getenv("FAKECUDA_QUEUES_LOG"))
        if (FILE* f = std::fopen(log, "a")) {
            const char* queues = std::getenv("CUDA_DEVICE_MAX_CONNECTIONS");
            std::fprintf(f, "%s\n", queues ? queues : "unset");
            std::fclose(f);
        }
    if (fake::env_int("FAKECUDA_DRIVER_VERSION", 13000) == 0) return 35;
    if (int e = fake::env_int("FAKECUDA_DEVICE_ERROR", 0)) return e;
    *n = fake::env_int("FAKECUDA_DEVICES", 1);
    return 0;
}

int cudaSetDevice(int d) {
    FAULT("cudaSetDevice");
    return d < fake::env_int("FAKECUDA_DEVICES", 1) ? 0 : 101;
}

int cudaDeviceGetAttribute(int* value, int attr, int) {
    FAULT("cudaDeviceGetAttribute");
    const char* cc = std::getenv("FAKECUDA_CC");
    std::string s = cc ? cc : "9.0";
    auto dot = s.find('.');
    if (attr == 75) *value = std::atoi(s.substr(0, dot).c_str());
    else if (attr == 76) *value = dot == std::string::npos ? 0 : std::atoi(s.substr(dot + 1).c_str());
    else if (attr == 16) *value = 132;
    else return 1;
    return 0;
}

int cudaMalloc(void** p, size_t n) {
    FAULT("cudaMalloc");
    if (int e = fake::env_int("FAKECUDA_MALLOC_ERROR", 0)) return e;
    *p = std::malloc(n ? n : 1);
    return *p ? 0 : 2;
}

int cudaFree(void* p) {
    if (const char* log = std::getenv("FAKECUDA_FREE_LOG"); log && p) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch()).count();
        if (FILE* f = std::fopen(log, "a")) {
            std::fprintf(f, "%lld\n", static_cast<long long>(ms));
            std::fclose(f);
        }
    }
    std::free(p);
    return 0;
}

int cudaMemcpy(void* dst, const void* src, size_t n, int kind) {
    FAULT("cudaMemcpy");
    std::memcpy(dst, src, n);
    if (kind == 1) ++epoch;
    return 0;
}

int cudaMemset(void* p, int v, size_t n) {
    std::memset(p, v, n);
    ++epoch;
    return 0;
}

int cudaStreamCreate(void** s) {
    *s = new Stream{};
    return 0;
}
int cudaStreamDestroy(void* s) {
    delete static_cast<Stream*>(s);
    return 0;
}
int cudaStreamSynchronize(void*) { return 0; }
int cudaStreamBeginCapture(void* s, int) {
    FAULT("cudaStreamBeginCapture");
    if (!s || static_cast<Stream*>(s)->capture) return 900;  // cudaErrorStreamCaptureUnsupported
    static_cast<Stream*>(s)->capture = new Graph{};
    return 0;
}
int cudaStreamEndCapture(void* s, void** g) {
    if (!s || !static_cast<Stream*>(s)->capture) return 901;
    *g = static_cast<Stream*>(s)->capture;
    static_cast<Stream*>(s)->capture = nullptr;
    return 0;
}
int cudaGraphInstantiateWithFlags(void** exec, void* g, unsigned long long) {
    *exec = new Graph(*static_cast<Graph*>(g));
    return 0;
}
int cudaGraphLaunch(void* exec, void*) {
    FAULT("cudaGraphLaunch");
    for (const auto& [fn, arg] : static_cast<Graph*>(exec)->work) fn(arg);
    return 0;
}
int cudaGraphExecDestroy(void* exec) {
    delete static_cast<Graph*>(exec);
    return 0;
}
int cudaGraphDestroy(void* g) {
    delete static_cast<Graph*>(g);  // the recorded work's arguments stay: test-only, a few bytes
    return 0;
}
// For the fake cuDNN: is `s` capturing, and record `fn(arg)` into its graph.
int fakecuda_capturing(void* s) { return s && static_cast<Stream*>(s)->capture ? 1 : 0; }
void fakecuda_capture(void* s, void (*fn)(void*), void* arg) { static_cast<Stream*>(s)->capture->work.emplace_back(fn, arg); }

int cudaEventCreate(void** e) {
    *e = new Event{};
    return 0;
}

int cudaEventRecord(void* e, void*) {
    FAULT("cudaEventRecord");
    static_cast<Event*>(e)->t = std::chrono::steady_clock::now();
    return 0;
}

int cudaEventSynchronize(void*) { return 0; }

int cudaEventElapsedTime(float* ms, void* a, void* b) {
    *ms = std::chrono::duration<float, std::milli>(static_cast<Event*>(b)->t - static_cast<Event*>(a)->t).count();
    return 0;
}

int cudaEventDestroy(void* e) {
    delete static_cast<Event*>(e);
    return 0;
}

int cudaDeviceSynchronize() {
    FAULT("cudaDeviceSynchronize");
    return 0;
}

int cudaDeviceReset() {
    FAULT("cudaDeviceReset");
    if (int ms = fake::env_int("FAKECUDA_RESET_SLEEP_MS", 0)) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
    return 0;
}

const char* cudaGetErrorString(int e) {
    switch (e) {
        case 0: return "no error";
        case 2: return "out of memory";
        case 35: return "CUDA driver version is insufficient for CUDA runtime version";
        case 100: return "no CUDA-capable device is detected";
        default: return "unknown error";
    }
}

const char* cudaGetErrorName(int e) { return e == 0 ? "cudaSuccess" : "cudaErrorUnknown"; }
}
