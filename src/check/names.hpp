#pragma once
// Names and plain advice for CUDA runtime errors and cuDNN statuses. cuDNN's
// numbering changed between 8 and 9 (NOT_INITIALIZED is 1 in 8, 1001 in 9),
// so a status is named according to the loaded library's major version.
#include <string>

namespace cudaenv::check {

// "cudaErrorInsufficientDriver" for 35; "cudaError 9999" for unknown codes.
std::string cuda_error_name(int code);
// "CUDNN_STATUS_ARCH_MISMATCH" for (8, 6) and (9, 3007).
std::string cudnn_status_name(int cudnn_major, int code);

// One plain sentence on what to do, or "" when there is nothing specific.
std::string cuda_error_advice(int code);
std::string cudnn_status_advice(int cudnn_major, int code);

// cudnnGetVersion() decoded: cuDNN 8 is major*1000+minor*100+patch (8907),
// cuDNN 9 is major*10000+minor*100+patch (90600).
struct CudnnVersionDecoded {
    int major = 0, minor = 0, patch = 0;
};
CudnnVersionDecoded decode_cudnn_v8(long long v);
CudnnVersionDecoded decode_cudnn_v9(long long v);
// The formula that fits: v >= 90000 is cuDNN 9 or later, else cuDNN 8's.
CudnnVersionDecoded decode_cudnn(long long v);
// CUDA's integer versions (cudaRuntimeGetVersion, CUDART_VERSION): 12060 -> "12.6".
std::string cuda_int_version(int v);

}  // namespace cudaenv::check
