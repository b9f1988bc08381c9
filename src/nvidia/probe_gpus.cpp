#include "nvidia/probe_gpus.hpp"

#include "core/cudalibs.hpp"
#include "platform/dynlib.hpp"
#include "platform/platform.hpp"

namespace cudaenv::nvidia {

namespace {

// The driver API and NVML entry points used (cuda.h, nvml.h); 0 is success for both.
using CuInit = int(CUDAENV_LIBAPI*)(unsigned);
using CuDriverGetVersion = int(CUDAENV_LIBAPI*)(int*);
using CuDeviceGetCount = int(CUDAENV_LIBAPI*)(int*);
using CuDeviceGet = int(CUDAENV_LIBAPI*)(int*, int);
using CuDeviceGetName = int(CUDAENV_LIBAPI*)(char*, int, int);
using CuDeviceGetAttribute = int(CUDAENV_LIBAPI*)(int*, int, int);
using NvmlInit = int(CUDAENV_LIBAPI*)();
using NvmlGetDriverVersion = int(CUDAENV_LIBAPI*)(char*, unsigned);
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
    auto cuda = open_first(cudalibs::driver_names(platform::is_windows), error);
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
    auto nvml = open_first(cudalibs::nvml_names(platform::is_windows), error);
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
