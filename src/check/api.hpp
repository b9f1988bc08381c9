#pragma once
// The slice of the CUDA runtime and cuDNN C APIs that `check` calls, declared
// here from NVIDIA's documented signatures (docs/check.md) so that
// cudaenv builds without any CUDA header or library: every symbol is resolved
// at run time from the pair's own libraries.
#include <cstddef>
#include <cstdint>

#include "platform/dynlib.hpp"  // CUDAENV_LIBAPI

namespace cudaenv::cuda_api {

using cudaError_t = int;
using cudaStream_t = void*;
using cudaEvent_t = void*;
using cudaGraph_t = void*;
using cudaGraphExec_t = void*;

inline constexpr int cudaDevAttrComputeCapabilityMajor = 75;
inline constexpr int cudaDevAttrComputeCapabilityMinor = 76;
inline constexpr int cudaDevAttrMultiProcessorCount = 16;
inline constexpr int cudaMemcpyHostToDevice = 1;
inline constexpr int cudaMemcpyDeviceToHost = 2;
inline constexpr int cudaStreamCaptureModeThreadLocal = 1;  // enum cudaStreamCaptureMode

// Every function `check` resolves, written once: X(Type, field, symbol, return
// type, (parameters)). The lists give the typedefs below, the fields of
// CudaFns/CudnnFns (check/probe_internal.hpp), the names the probe resolves
// (check/probe_load.cpp) and the ABI check against NVIDIA's headers on the GPU
// machine (bench/gpu-machine/gpu_abi_check.cpp).
#define CUDAENV_CUDART_REQUIRED(X)                                                              \
    X(RuntimeGetVersion, runtime_get_version, cudaRuntimeGetVersion, cudaError_t, (int*))       \
    X(DriverGetVersion, driver_get_version, cudaDriverGetVersion, cudaError_t, (int*))          \
    X(GetDeviceCount, get_device_count, cudaGetDeviceCount, cudaError_t, (int*))               \
    X(SetDevice, set_device, cudaSetDevice, cudaError_t, (int))                                 \
    X(DeviceGetAttribute, device_get_attribute, cudaDeviceGetAttribute, cudaError_t,            \
      (int*, int attr, int device))                                                             \
    X(Malloc, malloc, cudaMalloc, cudaError_t, (void**, size_t))                                \
    X(Free, free, cudaFree, cudaError_t, (void*))                                               \
    X(Memcpy, memcpy, cudaMemcpy, cudaError_t, (void*, const void*, size_t, int kind))          \
    X(EventCreate, event_create, cudaEventCreate, cudaError_t, (cudaEvent_t*))                  \
    X(EventRecord, event_record, cudaEventRecord, cudaError_t, (cudaEvent_t, cudaStream_t))     \
    X(EventSynchronize, event_synchronize, cudaEventSynchronize, cudaError_t, (cudaEvent_t))    \
    X(EventElapsedTime, event_elapsed_time, cudaEventElapsedTime, cudaError_t,                  \
      (float*, cudaEvent_t, cudaEvent_t))                                                       \
    X(EventDestroy, event_destroy, cudaEventDestroy, cudaError_t, (cudaEvent_t))                \
    X(DeviceSynchronize, device_synchronize, cudaDeviceSynchronize, cudaError_t, ())            \
    X(DeviceReset, device_reset, cudaDeviceReset, cudaError_t, ())                              \
    X(GetErrorString, get_error_string, cudaGetErrorString, const char*, (cudaError_t))

// CUDA graphs (stream capture, CUDA 11.4 and later): optional, for the CUDA-graph timing.
#define CUDAENV_CUDART_GRAPHS(X)                                                                           \
    X(StreamCreate, stream_create, cudaStreamCreate, cudaError_t, (cudaStream_t*))                         \
    X(StreamDestroy, stream_destroy, cudaStreamDestroy, cudaError_t, (cudaStream_t))                       \
    X(StreamSynchronize, stream_synchronize, cudaStreamSynchronize, cudaError_t, (cudaStream_t))           \
    X(StreamBeginCapture, begin_capture, cudaStreamBeginCapture, cudaError_t, (cudaStream_t, int mode))    \
    X(StreamEndCapture, end_capture, cudaStreamEndCapture, cudaError_t, (cudaStream_t, cudaGraph_t*))      \
    X(GraphInstantiateWithFlags, instantiate, cudaGraphInstantiateWithFlags, cudaError_t,                  \
      (cudaGraphExec_t*, cudaGraph_t, unsigned long long flags))                                           \
    X(GraphLaunch, launch, cudaGraphLaunch, cudaError_t, (cudaGraphExec_t, cudaStream_t))                  \
    X(GraphExecDestroy, exec_destroy, cudaGraphExecDestroy, cudaError_t, (cudaGraphExec_t))                \
    X(GraphDestroy, graph_destroy, cudaGraphDestroy, cudaError_t, (cudaGraph_t))

#define CUDAENV_CUDA_TYPEDEF(Type, field, symbol, R, params) using Type = R(*) params;
extern "C" {
CUDAENV_CUDART_REQUIRED(CUDAENV_CUDA_TYPEDEF)
CUDAENV_CUDART_GRAPHS(CUDAENV_CUDA_TYPEDEF)
}
#undef CUDAENV_CUDA_TYPEDEF

}  // namespace cudaenv::cuda_api

namespace cudaenv::cudnn_api {

using cudnnStatus_t = int;
using cudnnHandle_t = void*;
using cudnnTensorDescriptor_t = void*;
using cudnnFilterDescriptor_t = void*;
using cudnnConvolutionDescriptor_t = void*;

// Stable across cuDNN 8 and 9.
inline constexpr int CUDNN_DATA_FLOAT = 0;
inline constexpr int CUDNN_DATA_HALF = 2;
inline constexpr int CUDNN_TENSOR_NCHW = 0;
inline constexpr int CUDNN_CROSS_CORRELATION = 1;
inline constexpr int CUDNN_DEFAULT_MATH = 0;
inline constexpr int CUDNN_TENSOR_OP_MATH = 1;
inline constexpr int CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION = 2;
inline constexpr int CUDNN_FMA_MATH = 3;
inline constexpr int CUDNN_CONVOLUTION_FWD_ALGO_COUNT = 8;

struct ConvolutionFwdAlgoPerf {
    int algo;
    cudnnStatus_t status;
    float time;
    size_t memory;
    int determinism;
    int mathType;
    int reserved[3];
};

// As for the CUDA runtime above: X(Type, field, symbol, return type, (parameters)).
#define CUDAENV_CUDNN_REQUIRED(X)                                                                          \
    X(GetVersion, get_version, cudnnGetVersion, size_t, ())                                                \
    X(GetCudartVersion, get_cudart_version, cudnnGetCudartVersion, size_t, ())                             \
    X(GetErrorString, get_error_string, cudnnGetErrorString, const char*, (cudnnStatus_t))                 \
    X(Create, create, cudnnCreate, cudnnStatus_t, (cudnnHandle_t*))                                        \
    X(Destroy, destroy, cudnnDestroy, cudnnStatus_t, (cudnnHandle_t))                                      \
    X(CreateTensorDescriptor, create_tensor, cudnnCreateTensorDescriptor, cudnnStatus_t,                   \
      (cudnnTensorDescriptor_t*))                                                                          \
    X(SetTensor4dDescriptor, set_tensor4d, cudnnSetTensor4dDescriptor, cudnnStatus_t,                      \
      (cudnnTensorDescriptor_t, int format, int dataType, int n, int c, int h, int w))                     \
    X(DestroyTensorDescriptor, destroy_tensor, cudnnDestroyTensorDescriptor, cudnnStatus_t,                \
      (cudnnTensorDescriptor_t))                                                                           \
    X(CreateFilterDescriptor, create_filter, cudnnCreateFilterDescriptor, cudnnStatus_t,                   \
      (cudnnFilterDescriptor_t*))                                                                          \
    /* Note the order: data type first, then format. */                                                    \
    X(SetFilter4dDescriptor, set_filter4d, cudnnSetFilter4dDescriptor, cudnnStatus_t,                      \
      (cudnnFilterDescriptor_t, int dataType, int format, int k, int c, int h, int w))                     \
    X(DestroyFilterDescriptor, destroy_filter, cudnnDestroyFilterDescriptor, cudnnStatus_t,                \
      (cudnnFilterDescriptor_t))                                                                           \
    X(CreateConvolutionDescriptor, create_conv, cudnnCreateConvolutionDescriptor, cudnnStatus_t,           \
      (cudnnConvolutionDescriptor_t*))                                                                     \
    X(SetConvolution2dDescriptor, set_conv2d, cudnnSetConvolution2dDescriptor, cudnnStatus_t,              \
      (cudnnConvolutionDescriptor_t, int pad_h, int pad_w, int u, int v, int dilation_h, int dilation_w,   \
       int mode, int computeType))                                                                         \
    X(SetConvolutionMathType, set_math_type, cudnnSetConvolutionMathType, cudnnStatus_t,                   \
      (cudnnConvolutionDescriptor_t, int mathType))                                                        \
    X(DestroyConvolutionDescriptor, destroy_conv, cudnnDestroyConvolutionDescriptor, cudnnStatus_t,        \
      (cudnnConvolutionDescriptor_t))                                                                      \
    X(GetConvolution2dForwardOutputDim, output_dim, cudnnGetConvolution2dForwardOutputDim, cudnnStatus_t,  \
      (cudnnConvolutionDescriptor_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t, int*, int*, int*,   \
       int*))                                                                                              \
    X(FindConvolutionForwardAlgorithm, find_fwd, cudnnFindConvolutionForwardAlgorithm, cudnnStatus_t,      \
      (cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t, cudnnConvolutionDescriptor_t,      \
       cudnnTensorDescriptor_t, int requested, int* returned, ConvolutionFwdAlgoPerf*))                    \
    X(GetConvolutionForwardWorkspaceSize, workspace_size, cudnnGetConvolutionForwardWorkspaceSize,         \
      cudnnStatus_t,                                                                                       \
      (cudnnHandle_t, cudnnTensorDescriptor_t, cudnnFilterDescriptor_t, cudnnConvolutionDescriptor_t,      \
       cudnnTensorDescriptor_t, int algo, size_t*))                                                        \
    X(ConvolutionForward, forward, cudnnConvolutionForward, cudnnStatus_t,                                 \
      (cudnnHandle_t, const void* alpha, cudnnTensorDescriptor_t, const void* x, cudnnFilterDescriptor_t,  \
       const void* w, cudnnConvolutionDescriptor_t, int algo, void* workspace, size_t workspaceBytes,      \
       const void* beta, cudnnTensorDescriptor_t, void* y))

// Optional: for the CUDA-graph timing.
#define CUDAENV_CUDNN_STREAM(X) \
    X(SetStream, set_stream, cudnnSetStream, cudnnStatus_t, (cudnnHandle_t, cuda_api::cudaStream_t))

#define CUDAENV_CUDNN_TYPEDEF(Type, field, symbol, R, params) using Type = R(CUDAENV_LIBAPI*) params;
extern "C" {
CUDAENV_CUDNN_REQUIRED(CUDAENV_CUDNN_TYPEDEF)
CUDAENV_CUDNN_STREAM(CUDAENV_CUDNN_TYPEDEF)
}

}  // namespace cudaenv::cudnn_api

// cuDNN's backend (graph) API, cuDNN 8.0 and later: the engines the frameworks
// reach (PyTorch through cudnn_frontend), many of which the eight legacy
// algorithms do not. Values from cudnn_backend.h (8.x) / cudnn_graph.h (9.x),
// unchanged between them; bench/gpu-machine/gpu_abi_check.cpp checks every one against a
// real header on the GPU machine.
namespace cudaenv::cudnn_api::backend {

using Descriptor = void*;

enum DescriptorType : int {
    CONVOLUTION_DESCRIPTOR = 1,
    ENGINE_DESCRIPTOR = 2,
    ENGINECFG_DESCRIPTOR = 3,
    ENGINEHEUR_DESCRIPTOR = 4,
    EXECUTION_PLAN_DESCRIPTOR = 5,
    KNOB_CHOICE_DESCRIPTOR = 7,
    OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR = 10,
    OPERATIONGRAPH_DESCRIPTOR = 15,
    VARIANT_PACK_DESCRIPTOR = 16,
    TENSOR_DESCRIPTOR = 17,
};

enum AttributeType : int {
    TYPE_HANDLE = 0,
    TYPE_DATA_TYPE = 1,
    TYPE_BOOLEAN = 2,
    TYPE_INT64 = 3,
    TYPE_FLOAT = 4,
    TYPE_DOUBLE = 5,
    TYPE_VOID_PTR = 6,
    TYPE_CONVOLUTION_MODE = 7,
    TYPE_HEUR_MODE = 8,
    TYPE_KNOB_TYPE = 9,
    TYPE_NUMERICAL_NOTE = 11,
    TYPE_BACKEND_DESCRIPTOR = 15,
    TYPE_BEHAVIOR_NOTE = 19,
};

enum AttributeName : int {
    ATTR_CONVOLUTION_COMP_TYPE = 100,
    ATTR_CONVOLUTION_CONV_MODE = 101,
    ATTR_CONVOLUTION_DILATIONS = 102,
    ATTR_CONVOLUTION_FILTER_STRIDES = 103,
    ATTR_CONVOLUTION_POST_PADDINGS = 104,
    ATTR_CONVOLUTION_PRE_PADDINGS = 105,
    ATTR_CONVOLUTION_SPATIAL_DIMS = 106,
    ATTR_ENGINEHEUR_MODE = 200,
    ATTR_ENGINEHEUR_OPERATION_GRAPH = 201,
    ATTR_ENGINEHEUR_RESULTS = 202,
    ATTR_ENGINECFG_ENGINE = 300,
    ATTR_ENGINECFG_KNOB_CHOICES = 302,
    ATTR_EXECUTION_PLAN_HANDLE = 400,
    ATTR_EXECUTION_PLAN_ENGINE_CONFIG = 401,
    ATTR_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
    ATTR_KNOB_CHOICE_KNOB_TYPE = 600,
    ATTR_KNOB_CHOICE_KNOB_VALUE = 601,
    ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA = 700,
    ATTR_OPERATION_CONVOLUTION_FORWARD_BETA = 701,
    ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC = 702,
    ATTR_OPERATION_CONVOLUTION_FORWARD_W = 703,
    ATTR_OPERATION_CONVOLUTION_FORWARD_X = 704,
    ATTR_OPERATION_CONVOLUTION_FORWARD_Y = 705,
    ATTR_OPERATIONGRAPH_HANDLE = 800,
    ATTR_OPERATIONGRAPH_OPS = 801,
    ATTR_TENSOR_BYTE_ALIGNMENT = 900,
    ATTR_TENSOR_DATA_TYPE = 901,
    ATTR_TENSOR_DIMENSIONS = 902,
    ATTR_TENSOR_STRIDES = 903,
    ATTR_TENSOR_UNIQUE_ID = 906,
    ATTR_VARIANT_PACK_UNIQUE_IDS = 1000,
    ATTR_VARIANT_PACK_DATA_POINTERS = 1001,
    ATTR_VARIANT_PACK_WORKSPACE = 1003,
    ATTR_ENGINE_GLOBAL_INDEX = 1301,
    ATTR_ENGINE_NUMERICAL_NOTE = 1303,
    ATTR_ENGINE_BEHAVIOR_NOTE = 1305,
};

enum HeurMode : int { HEUR_MODE_INSTANT = 0, HEUR_MODE_B = 1, HEUR_MODE_FALLBACK = 2, HEUR_MODE_A = 3 };

enum NumericalNote : int {
    NUMERICAL_NOTE_TENSOR_CORE = 0,
    NUMERICAL_NOTE_DOWN_CONVERT_INPUTS = 1,
    NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION = 2,
    NUMERICAL_NOTE_FFT = 3,
    NUMERICAL_NOTE_NONDETERMINISTIC = 4,
    NUMERICAL_NOTE_WINOGRAD = 5,
};

enum BehaviorNote : int { BEHAVIOR_NOTE_RUNTIME_COMPILATION = 0 };

// The backend (graph) API: optional, a cuDNN without it is checked through the legacy API.
#define CUDAENV_CUDNN_BACKEND(X)                                                                           \
    X(CreateDescriptor, create, cudnnBackendCreateDescriptor, cudnnStatus_t, (int descriptorType, Descriptor*)) \
    X(DestroyDescriptor, destroy, cudnnBackendDestroyDescriptor, cudnnStatus_t, (Descriptor))              \
    X(Finalize, finalize, cudnnBackendFinalize, cudnnStatus_t, (Descriptor))                               \
    X(SetAttribute, set, cudnnBackendSetAttribute, cudnnStatus_t,                                          \
      (Descriptor, int name, int type, std::int64_t elementCount, const void* elements))                   \
    X(GetAttribute, get, cudnnBackendGetAttribute, cudnnStatus_t,                                          \
      (Descriptor, int name, int type, std::int64_t requestedCount, std::int64_t* elementCount,            \
       void* elements))                                                                                    \
    X(Execute, execute, cudnnBackendExecute, cudnnStatus_t, (cudnnHandle_t, Descriptor plan, Descriptor variantPack))

extern "C" {
CUDAENV_CUDNN_BACKEND(CUDAENV_CUDNN_TYPEDEF)
}
#undef CUDAENV_CUDNN_TYPEDEF

}  // namespace cudaenv::cudnn_api::backend
