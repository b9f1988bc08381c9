#include "nvidia/probe_gpus.hpp"

#include "platform/dynlib.hpp"
#include "platform/platform.hpp"

namespace cudaenv::nvidia {

namespace {

#ifdef _WIN32
#define CUDAENV_DRIVER_API __stdcall
#else
#define CUDAENV_DRIVER_API
#endif

// The driver API and NVML entry points used (cuda.h, nvml.h); 0 is success for both.
using CuInit = int(CUDAENV_DRIVER_API*)(unsigned);
using CuDriverGetVersion = int(CUDAENV_DRIVER_API*)(int*);
using CuDeviceGetCount = int(CUDAENV_DRIVER_API*)(int*);
using CuDeviceGet = int(CUDAENV_DRIVER_API*)(int*, int);
using CuDeviceGetName = int(CUDAENV_DRIVER_API*)(char*, int, int);
using CuDeviceGetAttribute = int(CUDAENV_DRIVER_API*)(int*, int, int);
using NvmlInit = int(CUDAENV_DRIVER_API*)();
using NvmlGetDriverVersion = int(CUDAENV_DRIVER_API*)(char*, unsigned);
constexpr int cc_major_attribute = 75, cc_minor_attribute = 76;  // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_*

// The first of `names` that loads (by name: the loader's own search, System32 on Windows).
// `error`: why the first could not be loaded (the usual name says most).
platform::DynLib open_first(const std::vector<std::string>& names, std::string& error) {
    for (const auto& n : names) {
        std::string why;
        auto lib = platform::DynLib::open(n, why);
        if (lib.loaded()) return lib;
        if (error.empty()) error = why;
    }
    return {};
}

template <class F>
F sym(const platform::DynLib& lib, const char* name) {
    return reinterpret_cast<F>(lib.symbol(name));
}

void ask_driver_api(ProbedMachine& m) {
    std::string error;
    auto cuda = platform::is_windows ? open_first({"nvcuda.dll"}, error)
                                     : open_first({"libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"}, error);
    if (!cuda.loaded()) {
        m.gpu_error = "no NVIDIA driver library (" + error + ")";
        return;
    }
    auto init = sym<CuInit>(cuda, "cuInit");
    auto version = sym<CuDriverGetVersion>(cuda, "cuDriverGetVersion");
    auto count = sym<CuDeviceGetCount>(cuda, "cuDeviceGetCount");
    auto get = sym<CuDeviceGet>(cuda, "cuDeviceGet");
    auto name = sym<CuDeviceGetName>(cuda, "cuDeviceGetName");
    auto attr = sym<CuDeviceGetAttribute>(cuda, "cuDeviceGetAttribute");
    if (!init || !version || !count || !get || !name || !attr) {
        m.gpu_error = "the driver library lacks a driver API function";
        return;
    }
    if (version(&m.driver_cuda) != 0) m.driver_cuda = 0;
    if (int e = init(0); e != 0) {
        m.gpu_error = "cuInit failed with CUresult " + std::to_string(e) + (e == 100 ? " (no CUDA-capable device)" : "");
        return;
    }
    int n = 0;
    if (int e = count(&n); e != 0) {
        m.gpu_error = "cuDeviceGetCount failed with CUresult " + std::to_string(e);
        return;
    }
    for (int i = 0; i < n && i < 64; ++i) {
        int dev = 0;
        ProbedGpu g;
        g.index = i;
        char buf[256] = {};
        if (get(&dev, i) != 0 || attr(&g.major, cc_major_attribute, dev) != 0 ||
            attr(&g.minor, cc_minor_attribute, dev) != 0)
            continue;
        if (name(buf, sizeof buf - 1, dev) == 0) g.name = buf;
        m.gpus.push_back(g);
    }
}

void ask_nvml(ProbedMachine& m) {
    std::string error;
    auto nvml = platform::is_windows
                    ? open_first({"nvml.dll", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll"}, error)
                    : open_first({"libnvidia-ml.so.1", "/usr/lib/wsl/lib/libnvidia-ml.so.1"}, error);
    if (!nvml.loaded()) return;
    auto init = sym<NvmlInit>(nvml, "nvmlInit_v2");
    auto get = sym<NvmlGetDriverVersion>(nvml, "nvmlSystemGetDriverVersion");
    auto shutdown = sym<NvmlInit>(nvml, "nvmlShutdown");
    char buf[96] = {};
    if (init && get && init() == 0) {
        if (get(buf, sizeof buf - 1) == 0) m.driver = buf;
        if (shutdown) shutdown();
    }
}

}  // namespace

ProbedMachine probe_machine() {
    ProbedMachine m;
    ask_nvml(m);
    ask_driver_api(m);
    return m;
}

}  // namespace cudaenv::nvidia
