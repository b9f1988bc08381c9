#pragma once
#include <memory>
// Shared between the probe's steps (probe.cpp) and its convolution (conv.cpp).
#include <functional>
#include <string>

#include "check/api.hpp"
#include "check/probe.hpp"
#include "check/result.hpp"

namespace cudaenv::check {

struct CudaFns {
    cuda_api::RuntimeGetVersion runtime_get_version = nullptr;
    cuda_api::DriverGetVersion driver_get_version = nullptr;
    cuda_api::GetDeviceCount get_device_count = nullptr;
    cuda_api::SetDevice set_device = nullptr;
    cuda_api::DeviceGetAttribute device_get_attribute = nullptr;
    cuda_api::Malloc malloc = nullptr;
    cuda_api::Free free = nullptr;
    cuda_api::Memcpy memcpy = nullptr;
    cuda_api::EventCreate event_create = nullptr;
    cuda_api::EventRecord event_record = nullptr;
    cuda_api::EventSynchronize event_synchronize = nullptr;
    cuda_api::EventElapsedTime event_elapsed_time = nullptr;
    cuda_api::EventDestroy event_destroy = nullptr;
    cuda_api::DeviceSynchronize device_synchronize = nullptr;
    cuda_api::GetErrorString get_error_string = nullptr;

    // Stream capture into CUDA graphs (CUDA 11.4 and later): all null when
    // missing, and then no CUDA-graph timing.
    struct Graphs {
        cuda_api::StreamCreate stream_create = nullptr;
        cuda_api::StreamDestroy stream_destroy = nullptr;
        cuda_api::StreamSynchronize stream_synchronize = nullptr;
        cuda_api::StreamBeginCapture begin_capture = nullptr;
        cuda_api::StreamEndCapture end_capture = nullptr;
        cuda_api::GraphInstantiateWithFlags instantiate = nullptr;
        cuda_api::GraphLaunch launch = nullptr;
        cuda_api::GraphExecDestroy exec_destroy = nullptr;
        cuda_api::GraphDestroy graph_destroy = nullptr;
        bool available() const {
            return stream_create && stream_destroy && stream_synchronize && begin_capture && end_capture &&
                   instantiate && launch && exec_destroy && graph_destroy;
        }
    } graphs;
};

struct CudnnFns {
    cudnn_api::GetVersion get_version = nullptr;
    cudnn_api::GetCudartVersion get_cudart_version = nullptr;
    cudnn_api::GetErrorString get_error_string = nullptr;
    cudnn_api::Create create = nullptr;
    cudnn_api::Destroy destroy = nullptr;
    cudnn_api::CreateTensorDescriptor create_tensor = nullptr;
    cudnn_api::SetTensor4dDescriptor set_tensor4d = nullptr;
    cudnn_api::DestroyTensorDescriptor destroy_tensor = nullptr;
    cudnn_api::CreateFilterDescriptor create_filter = nullptr;
    cudnn_api::SetFilter4dDescriptor set_filter4d = nullptr;
    cudnn_api::DestroyFilterDescriptor destroy_filter = nullptr;
    cudnn_api::CreateConvolutionDescriptor create_conv = nullptr;
    cudnn_api::SetConvolution2dDescriptor set_conv2d = nullptr;
    cudnn_api::SetConvolutionMathType set_math_type = nullptr;
    cudnn_api::DestroyConvolutionDescriptor destroy_conv = nullptr;
    cudnn_api::GetConvolution2dForwardOutputDim output_dim = nullptr;
    cudnn_api::FindConvolutionForwardAlgorithm find_fwd = nullptr;
    cudnn_api::GetConvolutionForwardWorkspaceSize workspace_size = nullptr;
    cudnn_api::ConvolutionForward forward = nullptr;
    cudnn_api::SetStream set_stream = nullptr;  // optional: for the CUDA-graph timing

    // The backend (graph) API, which cuDNN has had since 8.0; all null when
    // this one lacks it, and then only the legacy API is timed.
    struct Backend {
        cudnn_api::backend::CreateDescriptor create = nullptr;
        cudnn_api::backend::DestroyDescriptor destroy = nullptr;
        cudnn_api::backend::Finalize finalize = nullptr;
        cudnn_api::backend::SetAttribute set = nullptr;
        cudnn_api::backend::GetAttribute get = nullptr;
        cudnn_api::backend::Execute execute = nullptr;
        bool available() const { return create && destroy && finalize && set && get && execute; }
    } backend;
};

struct ConvRequest {
    bool half = false;  // fp16 data with tensor-op math (float accumulation), else fp32 with default math
    int cc_major = 0, cc_minor = 0;
    int cudnn_major = 0;
};

// One convolution step (conv or conv_fp16) in two phases, so that pairs
// checked at once can share a GPU: prepare() (the inputs on the GPU, the
// legacy descriptors, the graph's plans and, with `warm`, one untimed run of
// every algorithm and plan, which loads their kernels) needs no GPU of its
// own; measure() (choose, verify, time) must have the GPU alone. Neither
// throws: a failure is measure()'s result.
class ConvCheck {
public:
    ConvCheck(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req);
    ConvCheck(const ConvCheck&) = delete;
    ConvCheck& operator=(const ConvCheck&) = delete;
    ~ConvCheck();
    void prepare(bool warm);
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
