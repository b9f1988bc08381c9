#include "check/names.hpp"

#include <map>

namespace cudaenv::check {

std::string cuda_error_name(int code) {
    static const std::map<int, const char*> names = {
        {0, "cudaSuccess"},
        {1, "cudaErrorInvalidValue"},
        {2, "cudaErrorMemoryAllocation"},
        {3, "cudaErrorInitializationError"},
        {34, "cudaErrorStubLibrary"},
        {35, "cudaErrorInsufficientDriver"},
        {36, "cudaErrorCallRequiresNewerDriver"},
        {46, "cudaErrorDevicesUnavailable"},
        {100, "cudaErrorNoDevice"},
        {101, "cudaErrorInvalidDevice"},
        {209, "cudaErrorNoKernelImageForDevice"},
        {222, "cudaErrorUnsupportedPtxVersion"},
        {803, "cudaErrorSystemDriverMismatch"},
        {804, "cudaErrorCompatNotSupportedOnDevice"},
    };
    auto it = names.find(code);
    return it != names.end() ? it->second : "cudaError " + std::to_string(code);
}

std::string cuda_error_advice(int code) {
    switch (code) {
        case 2: return "The GPU is out of memory: close other programs that use it and check again.";
        case 3:
        case 46: return "The GPU could not be initialised: check that no other process holds it exclusively.";
        case 34: return "A stub libcuda was loaded instead of the driver's: remove the toolkit's lib64/stubs folder from the library path.";
        case 35:
            return "No NVIDIA driver new enough for this CUDA runtime was found: install or update the driver "
                   "(nvidia-smi shows the driver and the highest CUDA it supports).";
        case 36: return "This call needs a newer driver than the one installed: update the NVIDIA driver.";
        case 100: return "The driver sees no NVIDIA GPU: check that one is installed and visible (CUDA_VISIBLE_DEVICES).";
        case 101: return "The selected GPU does not exist: check CUDA_VISIBLE_DEVICES.";
        case 209:
            return "This CUDA build has no code for the GPU's architecture: use a toolkit/cuDNN that supports the GPU.";
        case 222: return "The driver is older than the toolkit that built this code: update the NVIDIA driver.";
        case 803: return "The driver's user-space libraries and kernel module differ: reboot, or reinstall the driver.";
        case 804: return "Forward compatibility is not supported on this GPU: update the NVIDIA driver instead.";
        default: return {};
    }
}

std::string cudnn_status_name(int major, int code) {
    if (code == 0) return "CUDNN_STATUS_SUCCESS";
    static const std::map<int, const char*> v8 = {
        {1, "NOT_INITIALIZED"},  {2, "ALLOC_FAILED"},     {3, "BAD_PARAM"},
        {4, "INTERNAL_ERROR"},   {5, "INVALID_VALUE"},    {6, "ARCH_MISMATCH"},
        {7, "MAPPING_ERROR"},    {8, "EXECUTION_FAILED"}, {9, "NOT_SUPPORTED"},
        {10, "LICENSE_ERROR"},   {11, "RUNTIME_PREREQUISITE_MISSING"},
        {12, "RUNTIME_IN_PROGRESS"}, {13, "RUNTIME_FP_OVERFLOW"}, {14, "VERSION_MISMATCH"},
    };
    static const std::map<int, const char*> v9 = {
        {1000, "NOT_INITIALIZED"},  // category only
        {1001, "NOT_INITIALIZED"},
        {1002, "SUBLIBRARY_VERSION_MISMATCH"},
        {1003, "SERIALIZATION_VERSION_MISMATCH"},
        {1004, "DEPRECATED"},
        {1005, "LICENSE_ERROR"},
        {1006, "RUNTIME_IN_PROGRESS"},
        {1007, "RUNTIME_FP_OVERFLOW"},
        {1008, "SUBLIBRARY_LOADING_FAILED"},
        {2000, "BAD_PARAM"},
        {2001, "INVALID_VALUE"},
        {2002, "BAD_PARAM_NULL_POINTER"},
        {2003, "BAD_PARAM_MISALIGNED_POINTER"},
        {2004, "BAD_PARAM_NOT_FINALIZED"},
        {2005, "BAD_PARAM_OUT_OF_BOUND"},
        {2006, "BAD_PARAM_SIZE_INSUFFICIENT"},
        {2007, "BAD_PARAM_STREAM_MISMATCH"},
        {2008, "BAD_PARAM_SHAPE_MISMATCH"},
        {2009, "BAD_PARAM_DUPLICATED_ENTRIES"},
        {2010, "BAD_PARAM_ATTRIBUTE_TYPE"},
        {2011, "BAD_PARAM_CUDA_GRAPH_MISMATCH"},
        {2012, "BAD_PARAM_DESCRIPTOR_TYPE"},
        {3000, "NOT_SUPPORTED"},
        {3005, "NOT_SUPPORTED_INCOMPATIBLE_CUDA_DRIVER"},
        {3006, "NOT_SUPPORTED_INCOMPATIBLE_CUDART"},
        {3007, "NOT_SUPPORTED_ARCH_MISMATCH"},
        {3008, "NOT_SUPPORTED_RUNTIME_PREREQUISITE_MISSING"},
        {3009, "NOT_SUPPORTED_SUBLIBRARY_UNAVAILABLE"},
        {4000, "INTERNAL_ERROR"},
        {4003, "INTERNAL_ERROR_HOST_ALLOCATION_FAILED"},
        {4004, "INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED"},
        {5000, "EXECUTION_FAILED"},
        {5001, "EXECUTION_FAILED_CUDA_DRIVER"},
        {5002, "EXECUTION_FAILED_CUBLAS"},
        {5003, "EXECUTION_FAILED_CUDART"},
        {5004, "EXECUTION_FAILED_CURAND"},
    };
    const auto& table = major >= 9 ? v9 : v8;
    if (auto it = table.find(code); it != table.end()) return std::string("CUDNN_STATUS_") + it->second;
    if (major >= 9 && code >= 1000) {
        // Unknown detail code: name its category (CUDNN_STATUS_CATEGORY(x) = x/1000*1000).
        if (auto it = table.find(code / 1000 * 1000); it != table.end())
            return std::string("CUDNN_STATUS_") + it->second + " (" + std::to_string(code) + ")";
    }
    return "cudnnStatus " + std::to_string(code);
}

std::string cudnn_status_advice(int major, int code) {
    // Bring both numberings onto cuDNN 8's names, then advise once.
    auto name = cudnn_status_name(major, code);
    auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
    if (has("SUBLIBRARY_LOADING_FAILED") || has("SUBLIBRARY_UNAVAILABLE"))
        return "cuDNN could not load one of its own sub-libraries: keep every cudnn* library of one release in one "
               "folder and make sure no other cuDNN comes first on the library path.";
    if (has("SUBLIBRARY_VERSION_MISMATCH") || has("VERSION_MISMATCH"))
        return "cuDNN libraries of different releases were mixed: remove the stray copies and keep one release per folder.";
    if (has("ARCH_MISMATCH"))
        return "This cuDNN does not support the GPU's architecture: use a cuDNN release whose support matrix lists this GPU.";
    if (has("INCOMPATIBLE_CUDA_DRIVER"))
        return "The NVIDIA driver is too old for this cuDNN: update the driver.";
    if (has("INCOMPATIBLE_CUDART"))
        return "This cuDNN was built for another CUDA major version than the runtime loaded: pair it with a matching toolkit.";
    if (has("NOT_INITIALIZED"))
        return "cuDNN could not initialise the GPU: usually no driver, a driver too old for the CUDA runtime, or a "
               "cuDNN built for another CUDA version.";
    if (has("ALLOC_FAILED") || has("ALLOCATION_FAILED")) return "Out of memory: close other programs that use the GPU.";
    if (has("RUNTIME_PREREQUISITE_MISSING"))
        return "A library cuDNN needs (cuBLAS, cudart or zlib) is missing or of the wrong version: check the pair's folders.";
    if (has("LICENSE_ERROR")) return "cuDNN's license check failed: reinstall cuDNN from NVIDIA's archive.";
    if (has("EXECUTION_FAILED"))
        return "The GPU failed to run cuDNN's kernel: check the driver (dmesg, nvidia-smi) and try again.";
    if (has("NOT_SUPPORTED"))
        return "This cuDNN cannot run that configuration on this GPU: try a newer cuDNN.";
    if (has("BAD_PARAM") || has("INVALID_VALUE") || has("INTERNAL_ERROR"))
        return "cuDNN rejected a standard convolution: the library is likely damaged or mismatched; reinstall this cuDNN.";
    return {};
}

CudnnVersionDecoded decode_cudnn_v8(long long v) {
    return {static_cast<int>(v / 1000), static_cast<int>(v % 1000 / 100), static_cast<int>(v % 100)};
}

CudnnVersionDecoded decode_cudnn_v9(long long v) {
    return {static_cast<int>(v / 10000), static_cast<int>(v % 10000 / 100), static_cast<int>(v % 100)};
}

CudnnVersionDecoded decode_cudnn(long long v) { return v >= 90000 ? decode_cudnn_v9(v) : decode_cudnn_v8(v); }

std::string cuda_int_version(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

}  // namespace cudaenv::check
