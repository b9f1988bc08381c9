// Test-only fake of cuDNN's shim library (libcudnn.so.8 / .so.9) with the
// legacy convolution API, computing on the CPU. Environment variables:
//   FAKECUDNN_VERSION         value of cudnnGetVersion (default: built-in)
//   FAKECUDNN_CUDART_VERSION  value of cudnnGetCudartVersion (default: built-in)
//   FAKECUDNN_STATUS=<function>:<code>   that function returns that status
//   FAKECUDNN_WRONG=1         the convolution computes wrong values
//   FAKECUDNN_NO_ALGO=1       Find reports every algorithm as not supported
//   FAKECUDNN_CRASH / FAKECUDNN_HANG = <function name>   (FAKECUDNN8_CRASH: only cuDNN 8's)
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "fault.hpp"

#ifndef FAKE_CUDNN_VERSION
#define FAKE_CUDNN_VERSION 90800
#endif
#ifndef FAKE_CUDNN_CUDART
#define FAKE_CUDNN_CUDART 12080
#endif

extern "C" long long fakecuda_epoch();  // from the fake libcudart this library links

namespace {

struct Tensor {
    int dtype = 0, n = 0, c = 0, h = 0, w = 0;
};
struct Conv {
    int pad_h = 0, pad_w = 0, math = 0;
};
struct Perf {
    int algo;
    int status;
    float time;
    size_t memory;
    int determinism;
    int mathType;
    int reserved[3];
};

float h2f(uint16_t h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16, exp = (h >> 10) & 0x1F, mant = h & 0x3FFu, x;
    if (exp == 0) {
        float f = std::ldexp(static_cast<float>(mant), -24);
        return sign ? -f : f;
    }
    if (exp == 31) x = sign | 0x7F800000u | (mant << 13);
    else x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

uint16_t f2h(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    int e = static_cast<int>((x >> 23) & 0xFF) - 127 + 15;
    uint32_t mant = x & 0x7FFFFFu;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    if (e <= 0) return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::lround(std::ldexp(std::fabs(f), 24))));
    uint32_t hbits = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (hbits & 1))) ++hbits;
    return static_cast<uint16_t>(sign | hbits);
}

// The last convolution computed, so timed repeats of the same one are cheap.
struct Memo {
    const void *x = nullptr, *w = nullptr;
    void* y = nullptr;
    long long epoch = -1;
} memo;

#define FAKE_STR2(x) #x
#define FAKE_STR(x) FAKE_STR2(x)
// FAKECUDNN_* applies to every fake cuDNN, FAKECUDNN8_* / FAKECUDNN9_* to one major.
#define FAULT(fn)                                                             \
    do {                                                                      \
        fake::maybe_crash_or_hang("FAKECUDNN", fn);                           \
        fake::maybe_crash_or_hang("FAKECUDNN" FAKE_STR(FAKE_CUDNN_MAJOR), fn); \
        if (int s_ = fake::forced_status(fn)) return s_;                      \
    } while (0)

}  // namespace

extern "C" {

size_t cudnnGetVersion() {
    fake::maybe_crash_or_hang("FAKECUDNN", "cudnnGetVersion");
    return static_cast<size_t>(fake::env_int("FAKECUDNN_VERSION", FAKE_CUDNN_VERSION));
}

size_t cudnnGetCudartVersion() {
    return static_cast<size_t>(fake::env_int("FAKECUDNN_CUDART_VERSION", FAKE_CUDNN_CUDART));
}

const char* cudnnGetErrorString(int s) { return s == 0 ? "CUDNN_STATUS_SUCCESS" : "fake cuDNN error"; }

int cudnnCreate(void** h) {
    FAULT("cudnnCreate");
    *h = new int(1);
    return 0;
}
int cudnnDestroy(void* h) {
    delete static_cast<int*>(h);
    return 0;
}
int cudnnCreateTensorDescriptor(void** d) {
    FAULT("cudnnCreateTensorDescriptor");
    *d = new Tensor;
    return 0;
}
int cudnnSetTensor4dDescriptor(void* d, int format, int dtype, int n, int c, int h, int w) {
    FAULT("cudnnSetTensor4dDescriptor");
    if (format != 0 || n <= 0 || c <= 0 || h <= 0 || w <= 0) return FAKE_CUDNN_MAJOR >= 9 ? 2000 : 3;
    *static_cast<Tensor*>(d) = {dtype, n, c, h, w};
    return 0;
}
int cudnnDestroyTensorDescriptor(void* d) {
    delete static_cast<Tensor*>(d);
    return 0;
}
int cudnnCreateFilterDescriptor(void** d) {
    FAULT("cudnnCreateFilterDescriptor");
    *d = new Tensor;
    return 0;
}
int cudnnSetFilter4dDescriptor(void* d, int dtype, int format, int k, int c, int h, int w) {
    FAULT("cudnnSetFilter4dDescriptor");
    if (format != 0) return FAKE_CUDNN_MAJOR >= 9 ? 2000 : 3;
    *static_cast<Tensor*>(d) = {dtype, k, c, h, w};
    return 0;
}
int cudnnDestroyFilterDescriptor(void* d) {
    delete static_cast<Tensor*>(d);
    return 0;
}
int cudnnCreateConvolutionDescriptor(void** d) {
    FAULT("cudnnCreateConvolutionDescriptor");
    *d = new Conv;
    return 0;
}
int cudnnSetConvolution2dDescriptor(void* d, int ph, int pw, int u, int v, int dh, int dw, int mode, int) {
    FAULT("cudnnSetConvolution2dDescriptor");
    if (u != 1 || v != 1 || dh != 1 || dw != 1 || mode != 1) return FAKE_CUDNN_MAJOR >= 9 ? 3000 : 9;
    static_cast<Conv*>(d)->pad_h = ph;
    static_cast<Conv*>(d)->pad_w = pw;
    return 0;
}
int cudnnSetConvolutionMathType(void* d, int m) {
    FAULT("cudnnSetConvolutionMathType");
    static_cast<Conv*>(d)->math = m;
    return 0;
}
int cudnnDestroyConvolutionDescriptor(void* d) {
    delete static_cast<Conv*>(d);
    return 0;
}
int cudnnGetConvolution2dForwardOutputDim(void* cd, void* xd, void* wd, int* n, int* c, int* h, int* w) {
    FAULT("cudnnGetConvolution2dForwardOutputDim");
    auto* conv = static_cast<Conv*>(cd);
    auto* x = static_cast<Tensor*>(xd);
    auto* f = static_cast<Tensor*>(wd);
    *n = x->n;
    *c = f->n;
    *h = x->h + 2 * conv->pad_h - f->h + 1;
    *w = x->w + 2 * conv->pad_w - f->w + 1;
    return 0;
}
#ifndef FAKE_OMIT_FIND
int cudnnFindConvolutionForwardAlgorithm(void*, void*, void*, void* cd, void*, int requested, int* returned, Perf* perf) {
    FAULT("cudnnFindConvolutionForwardAlgorithm");
    bool none = std::getenv("FAKECUDNN_NO_ALGO") != nullptr;
    int n = requested < 2 ? requested : 2;
    for (int i = 0; i < n; ++i)
        perf[i] = {i == 0 ? 1 : 0, none ? (FAKE_CUDNN_MAJOR >= 9 ? 3000 : 9) : 0, 0.5f + static_cast<float>(i), 0, 1,
                   static_cast<Conv*>(cd)->math, {0, 0, 0}};
    *returned = n;
    return 0;
}
#endif
int cudnnGetConvolutionForwardWorkspaceSize(void*, void*, void*, void*, void*, int, size_t* bytes) {
    FAULT("cudnnGetConvolutionForwardWorkspaceSize");
    *bytes = 1024;
    return 0;
}
int cudnnConvolutionForward(void*, const void* alpha, void* xd, const void* x, void* wd, const void* w, void* cd, int,
                            void*, size_t, const void* beta, void* yd, void* y) {
    FAULT("cudnnConvolutionForward");
    if (memo.x == x && memo.w == w && memo.y == y && memo.epoch == fakecuda_epoch()) return 0;
    const auto& X = *static_cast<Tensor*>(xd);
    const auto& W = *static_cast<Tensor*>(wd);
    const auto& Y = *static_cast<Tensor*>(yd);
    const auto& C = *static_cast<Conv*>(cd);
    bool half = X.dtype == 2;
    float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
    (void)b;
    size_t nx = static_cast<size_t>(X.n) * X.c * X.h * X.w, nw = static_cast<size_t>(W.n) * W.c * W.h * W.w;
    std::vector<float> xf(nx), wf(nw);
    for (size_t i = 0; i < nx; ++i) xf[i] = half ? h2f(static_cast<const uint16_t*>(x)[i]) : static_cast<const float*>(x)[i];
    for (size_t i = 0; i < nw; ++i) wf[i] = half ? h2f(static_cast<const uint16_t*>(w)[i]) : static_cast<const float*>(w)[i];
    std::vector<float> out(static_cast<size_t>(Y.n) * Y.c * Y.h * Y.w, 0.0f);
    for (int n = 0; n < Y.n; ++n)
        for (int k = 0; k < Y.c; ++k) {
            float* o = &out[(static_cast<size_t>(n) * Y.c + k) * Y.h * Y.w];
            for (int c = 0; c < X.c; ++c)
                for (int r = 0; r < W.h; ++r)
                    for (int s = 0; s < W.w; ++s) {
                        float wv = wf[((static_cast<size_t>(k) * W.c + c) * W.h + r) * W.w + s];
                        for (int oy = 0; oy < Y.h; ++oy) {
                            int iy = oy + r - C.pad_h;
                            if (iy < 0 || iy >= X.h) continue;
                            const float* in = &xf[((static_cast<size_t>(n) * X.c + c) * X.h + iy) * X.w];
                            float* orow = o + static_cast<size_t>(oy) * Y.w;
                            int ox0 = C.pad_w - s > 0 ? C.pad_w - s : 0;
                            int ox1 = X.w + C.pad_w - s < Y.w ? X.w + C.pad_w - s : Y.w;
                            for (int ox = ox0; ox < ox1; ++ox) orow[ox] += wv * in[ox + s - C.pad_w];
                        }
                    }
        }
    bool wrong = std::getenv("FAKECUDNN_WRONG") != nullptr;
    for (size_t i = 0; i < out.size(); ++i) {
        float v = a * out[i] * (wrong ? 1.01f : 1.0f);
        if (half) static_cast<uint16_t*>(y)[i] = f2h(v);
        else static_cast<float*>(y)[i] = v;
    }
    memo = {x, w, y, fakecuda_epoch()};
    return 0;
}
}
