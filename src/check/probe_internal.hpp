#pragma once
#include <memory>
// Shared between the probe's steps (probe.cpp) and its convolution (conv.cpp).
#include <functional>
#include <optional>
#include <vector>
#include <string>

#include "check/api.hpp"
#include "check/probe_options.hpp"
#include "check/result.hpp"

namespace cudaenv::check {

// The functions of check/api.hpp's lists, as resolved from the pair's libraries.
#define CUDAENV_CUDA_FIELD(Type, field, symbol, R, params) cuda_api::Type field = nullptr;
#define CUDAENV_CUDNN_FIELD(Type, field, symbol, R, params) cudnn_api::Type field = nullptr;
#define CUDAENV_BACKEND_FIELD(Type, field, symbol, R, params) cudnn_api::backend::Type field = nullptr;
#define CUDAENV_FN_PRESENT(Type, field, symbol, R, params) &&field
struct CudaFns {
    CUDAENV_CUDART_REQUIRED(CUDAENV_CUDA_FIELD)

    // Stream capture into CUDA graphs (CUDA 11.4 and later): all null when
    // missing, and then no CUDA-graph timing.
    struct Graphs {
        CUDAENV_CUDART_GRAPHS(CUDAENV_CUDA_FIELD)
        bool available() const { return true CUDAENV_CUDART_GRAPHS(CUDAENV_FN_PRESENT); }
    } graphs;
};

struct CudnnFns {
    CUDAENV_CUDNN_REQUIRED(CUDAENV_CUDNN_FIELD)
    CUDAENV_CUDNN_STREAM(CUDAENV_CUDNN_FIELD)  // optional: for the CUDA-graph timing

    // The backend (graph) API, which cuDNN has had since 8.0; all null when
    // this one lacks it, and then only the legacy API is timed.
    struct Backend {
        CUDAENV_CUDNN_BACKEND(CUDAENV_BACKEND_FIELD)
        bool available() const { return true CUDAENV_CUDNN_BACKEND(CUDAENV_FN_PRESENT); }
    } backend;
};
#undef CUDAENV_CUDA_FIELD
#undef CUDAENV_CUDNN_FIELD
#undef CUDAENV_BACKEND_FIELD
#undef CUDAENV_FN_PRESENT

struct ConvRequest {
    bool half = false;  // fp16 data with tensor-op math (float accumulation), else fp32 with default math
    int cc_major = 0, cc_minor = 0;
    int cudnn_major = 0;
};

struct ReferenceSample;  // check/conv_support.hpp

// What a convolution needs on the host (conv.cpp): inputs, the CPU reference
// at the sampled outputs, the NaN fill. CPU work only, so it is made while the
// CUDA context is created.
struct HostInputs {
    HostInputs(const ConvShape& of, bool in_half);
    ConvShape shape;
    bool half = false;
    std::vector<float> x, w;                // as the GPU sees them (rounded to half for fp16)
    std::vector<unsigned short> x16, w16;   // fp16 only
    std::shared_ptr<const ReferenceSample> reference;
    std::vector<unsigned char> nan;
};

// One convolution step (conv or conv_fp16) in two phases, so that pairs
// checked at once can share a GPU: prepare() (the inputs on the GPU, the
// legacy descriptors, the graph's plans and, with `warm`, one untimed run of
// every algorithm and plan, which loads their kernels; a kept path run once
// and checked) and capture() (a kept winner's runs captured as a CUDA graph)
// need no GPU of their own; measure() (choose, verify, time) must have the
// GPU alone. prepare() may run beside another ConvCheck's on another thread;
// capture() must not (a capture fails when another thread uses the legacy
// default stream meanwhile). None throws: a failure is measure()'s result.
class ConvCheck {
public:
    ConvCheck(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req,
              std::optional<HostInputs> host = std::nullopt);
    ConvCheck(const ConvCheck&) = delete;
    ConvCheck& operator=(const ConvCheck&) = delete;
    ~ConvCheck();
    void prepare(bool warm);
    void capture();
    StepResult measure();

private:
    struct State;
    std::unique_ptr<State> s_;
};

// prepare(false) and measure() in one go.
StepResult run_conv(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req);

// fp16 <-> fp32 on the CPU (round to nearest even), exposed for tests.
unsigned short float_to_half(float f);
float half_to_float(unsigned short h);

}  // namespace cudaenv::check
