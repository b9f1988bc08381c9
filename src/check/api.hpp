#pragma once
// The slice of the CUDA runtime and cuDNN C APIs that `check` calls, declared
// here from NVIDIA's documented signatures (nvidia-facts.md section 6) so that
// cudaenv builds without any CUDA header or library: every symbol is resolved
// at run time from the pair's own libraries.
#include <cstddef>

#ifdef _WIN32
#define CUDAENV_CUDNNAPI __stdcall  // CUDNNWINAPI; no effect on x64, kept for the record
#else
#define CUDAENV_CUDNNAPI
#endif

namespace cudaenv::cuda_api {

using cudaError_t = int;
using cudaStream_t = void*;
using cudaEvent_t = void*;

inline constexpr int cudaDevAttrComputeCapabilityMajor = 75;
inline constexpr int cudaDevAttrComputeCapabilityMinor = 76;
inline constexpr int cudaDevAttrMultiProcessorCount = 16;
inline constexpr int cudaMemcpyHostToDevice = 1;
inline constexpr int cudaMemcpyDeviceToHost = 2;

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
