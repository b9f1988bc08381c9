#pragma once
// The slice of the CUDA runtime and cuDNN C APIs that `check` calls, declared
// here from NVIDIA's documented signatures (docs/check.md) so that
// cudaenv builds without any CUDA header or library: every symbol is resolved
// at run time from the pair's own libraries.
#include <cstddef>
#include <cstdint>

#ifdef _WIN32
#define CUDAENV_CUDNNAPI __stdcall  // CUDNNWINAPI; no effect on x64, kept for the record
#else
#define CUDAENV_CUDNNAPI
#endif

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

extern "C" {
using RuntimeGetVersion = cudaError_t (*)(int*);
using DriverGetVersion = cudaError_t (*)(int*);
using GetDeviceCount = cudaError_t (*)(int*);
using SetDevice = cudaError_t (*)(int);
using DeviceGetAttribute = cudaError_t (*)(int*, int attr, int device);
using Malloc = cudaError_t (*)(void**, size_t);
using Free = cudaError_t (*)(void*);
using Memcpy = cudaError_t (*)(void*, const void*, size_t, int kind);
using Memset = cudaError_t (*)(void*, int, size_t);
using EventCreate = cudaError_t (*)(cudaEvent_t*);
using EventRecord = cudaError_t (*)(cudaEvent_t, cudaStream_t);
using EventSynchronize = cudaError_t (*)(cudaEvent_t);
using EventElapsedTime = cudaError_t (*)(float*, cudaEvent_t, cudaEvent_t);
using EventDestroy = cudaError_t (*)(cudaEvent_t);
using DeviceSynchronize = cudaError_t (*)();
using GetErrorString = const char* (*)(cudaError_t);
using GetErrorName = const char* (*)(cudaError_t);
// CUDA graphs (stream capture): optional, for the CUDA-graph timing.
using StreamCreate = cudaError_t (*)(cudaStream_t*);
using StreamDestroy = cudaError_t (*)(cudaStream_t);
using StreamSynchronize = cudaError_t (*)(cudaStream_t);
using StreamBeginCapture = cudaError_t (*)(cudaStream_t, int mode);
using StreamEndCapture = cudaError_t (*)(cudaStream_t, cudaGraph_t*);
using GraphInstantiateWithFlags = cudaError_t (*)(cudaGraphExec_t*, cudaGraph_t, unsigned long long flags);
using GraphLaunch = cudaError_t (*)(cudaGraphExec_t, cudaStream_t);
using GraphExecDestroy = cudaError_t (*)(cudaGraphExec_t);
using GraphDestroy = cudaError_t (*)(cudaGraph_t);
}

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

extern "C" {
using GetVersion = size_t(CUDAENV_CUDNNAPI*)();
using GetCudartVersion = size_t(CUDAENV_CUDNNAPI*)();
using GetErrorString = const char*(CUDAENV_CUDNNAPI*)(cudnnStatus_t);
using Create = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t*);
using Destroy = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t);
using SetStream = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t, cuda_api::cudaStream_t);
using CreateTensorDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnTensorDescriptor_t*);
using SetTensor4dDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnTensorDescriptor_t, int format, int dataType, int n,
                                                               int c, int h, int w);
using DestroyTensorDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnTensorDescriptor_t);
using CreateFilterDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnFilterDescriptor_t*);
// Note the order: data type first, then format.
using SetFilter4dDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnFilterDescriptor_t, int dataType, int format, int k,
                                                               int c, int h, int w);
using DestroyFilterDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnFilterDescriptor_t);
using CreateConvolutionDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnConvolutionDescriptor_t*);
using SetConvolution2dDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnConvolutionDescriptor_t, int pad_h, int pad_w,
                                                                    int u, int v, int dilation_h, int dilation_w,
                                                                    int mode, int computeType);
using SetConvolutionMathType = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnConvolutionDescriptor_t, int mathType);
using DestroyConvolutionDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnConvolutionDescriptor_t);
using GetConvolution2dForwardOutputDim = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnConvolutionDescriptor_t,
                                                                          cudnnTensorDescriptor_t,
                                                                          cudnnFilterDescriptor_t, int*, int*, int*,
                                                                          int*);
using FindConvolutionForwardAlgorithm = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t, cudnnTensorDescriptor_t,
                                                                         cudnnFilterDescriptor_t,
                                                                         cudnnConvolutionDescriptor_t,
                                                                         cudnnTensorDescriptor_t, int requested,
                                                                         int* returned, ConvolutionFwdAlgoPerf*);
using GetConvolutionForwardWorkspaceSize = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t, cudnnTensorDescriptor_t,
                                                                            cudnnFilterDescriptor_t,
                                                                            cudnnConvolutionDescriptor_t,
                                                                            cudnnTensorDescriptor_t, int algo,
                                                                            size_t*);
using ConvolutionForward = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t, const void* alpha, cudnnTensorDescriptor_t,
                                                            const void* x, cudnnFilterDescriptor_t, const void* w,
                                                            cudnnConvolutionDescriptor_t, int algo, void* workspace,
                                                            size_t workspaceBytes, const void* beta,
                                                            cudnnTensorDescriptor_t, void* y);
}

}  // namespace cudaenv::cudnn_api

// cuDNN's backend (graph) API, cuDNN 8.0 and later: the engines the frameworks
// reach (PyTorch through cudnn_frontend), many of which the eight legacy
// algorithms do not. Values from cudnn_backend.h (8.x) / cudnn_graph.h (9.x),
// unchanged between them; bench/gpu_abi_check.cpp checks every one against a
// real header on the GPU machine.
namespace cudaenv::cudnn_api::backend {

using Descriptor = void*;

enum DescriptorType : int {
    CONVOLUTION_DESCRIPTOR = 1,
    ENGINE_DESCRIPTOR = 2,
    ENGINECFG_DESCRIPTOR = 3,
    ENGINEHEUR_DESCRIPTOR = 4,
    EXECUTION_PLAN_DESCRIPTOR = 5,
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
    ATTR_EXECUTION_PLAN_HANDLE = 400,
    ATTR_EXECUTION_PLAN_ENGINE_CONFIG = 401,
    ATTR_EXECUTION_PLAN_WORKSPACE_SIZE = 402,
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

extern "C" {
using CreateDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(int descriptorType, Descriptor*);
using DestroyDescriptor = cudnnStatus_t(CUDAENV_CUDNNAPI*)(Descriptor);
using Finalize = cudnnStatus_t(CUDAENV_CUDNNAPI*)(Descriptor);
using SetAttribute = cudnnStatus_t(CUDAENV_CUDNNAPI*)(Descriptor, int name, int type, std::int64_t elementCount,
                                                      const void* elements);
using GetAttribute = cudnnStatus_t(CUDAENV_CUDNNAPI*)(Descriptor, int name, int type, std::int64_t requestedCount,
                                                      std::int64_t* elementCount, void* elements);
using Execute = cudnnStatus_t(CUDAENV_CUDNNAPI*)(cudnnHandle_t, Descriptor plan, Descriptor variantPack);
}

}  // namespace cudaenv::cudnn_api::backend
