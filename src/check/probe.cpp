// Steps 1-3 of `check` (files, loading, where libraries came from, versions,
// driver and GPU) and the driver of the whole probe.
#include "check/probe.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ostream>
#include <thread>

#include "check/compat.hpp"
#include "check/driver.hpp"
#include "check/names.hpp"
#include "check/probe_internal.hpp"
#include "core/cudalibs.hpp"
#include "core/detect.hpp"
#include "core/origin.hpp"
#include "platform/dynlib.hpp"
#include "platform/lock.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace fs = std::filesystem;

namespace {

struct LibFile {
    std::string name;
    std::string group;  // "cudart", "cudnn", "toolkit"
    bool required = true;
    fs::path path;      // empty when not found
};

struct Probe {
    const ProbeOptions& opts;
    std::ostream& out;
    std::optional<Toolkit> tk;
    std::optional<Cudnn> dnn;
    std::vector<fs::path> tk_dirs, dnn_dirs;
    std::vector<LibFile> files;
    std::vector<platform::DynLib> libs;
    platform::DynLib cudart, cudnn_shim;
    CudaFns cuda;
    CudnnFns cudnn;
    bool cuda_ok = false, cudnn_ok = false;
    int cc_major = 0, cc_minor = 0;

    void emit(const StepResult& r) {
        out << probe_marker << r.to_json().dump() << "\n";
        out.flush();
    }
};

void add_dir(std::vector<fs::path>& dirs, const fs::path& d) {
    if (fsx::is_dir(d) && std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
}

fs::path find_in(const std::vector<fs::path>& dirs, const std::string& name) {
    for (const auto& d : dirs)
        if (fsx::exists(d / fsx::from_utf8(name))) return d / fsx::from_utf8(name);
    return {};
}

// The first file in `dirs` that is toolkit library `lib` (its own major may
// differ from CUDA's, as libcufft.so.11 in CUDA 12).
fs::path find_toolkit_library(const std::vector<fs::path>& dirs, const std::string& lib, std::string& name) {
    for (const auto& d : dirs) {
        std::error_code ec;
        std::vector<std::string> names;
        for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
            names.push_back(fsx::to_utf8(it->path().filename()));
        std::sort(names.begin(), names.end());
        for (const auto& n : names)
            if (cudalibs::is_toolkit_library(n, lib, platform::is_windows)) {
                name = n;
                return d / fsx::from_utf8(n);
            }
    }
    return {};
}

std::string cudart_name(int cuda_major) { return cudalibs::cudart_name(cuda_major, platform::is_windows); }
std::vector<std::string> cudnn_names(int major) { return cudalibs::cudnn_names(major, platform::is_windows); }

// ---- Step 1: files ----------------------------------------------------------
StepResult step_files(Probe& p) {
    StepResult r{"files", Status::ok, "", "", nlohmann::json::object()};
    const auto& tk = *p.tk;
    for (const auto& d : search_dirs(tk)) add_dir(p.tk_dirs, d);

    int cuda_major = tk.version.major();
    p.files.push_back({cudart_name(cuda_major), "cudart", true, find_in(p.tk_dirs, cudart_name(cuda_major))});
    // The toolkit's main libraries: reported, and required only from a full
    // toolkit (one with nvcc); runtime-only and pip layouts bring cudart alone.
    bool full = fsx::is_file(tk.root / "bin" / "nvcc") || fsx::is_file(tk.root / "bin" / "nvcc.exe");
    for (const auto& lib : cudalibs::toolkit_libraries()) {
        std::string name;
        auto path = find_toolkit_library(p.tk_dirs, lib, name);
        p.files.push_back({name.empty() ? lib : name, "toolkit", false, path});
    }
    if (p.dnn) {
        const auto& c = *p.dnn;
        for (const auto& d : search_dirs(c)) add_dir(p.dnn_dirs, d);
        for (const auto& n : cudnn_names(c.version.major())) p.files.push_back({n, "cudnn", true, find_in(p.dnn_dirs, n)});
    }

    std::vector<std::string> missing, found_dirs, missing_optional;
    auto list = nlohmann::json::array();
    for (const auto& f : p.files) {
        list.push_back({{"name", f.name}, {"group", f.group}, {"required", f.required},
                        {"path", f.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(fsx::to_utf8(f.path))},
                        {"folder", f.path.empty() ? nlohmann::json(nullptr) : nlohmann::json(fsx::to_utf8(f.path.parent_path()))}});
        if (f.path.empty()) (f.required ? missing : missing_optional).push_back(f.name);
    }
    r.details["files"] = list;
    r.details["toolkit_dirs"] = nlohmann::json::array();
    for (const auto& d : p.tk_dirs) r.details["toolkit_dirs"].push_back(fsx::to_utf8(d));
    r.details["cudnn_dirs"] = nlohmann::json::array();
    for (const auto& d : p.dnn_dirs) r.details["cudnn_dirs"].push_back(fsx::to_utf8(d));

    size_t required = 0, present = 0;
    for (const auto& f : p.files)
        if (f.required) {
            ++required;
            present += !f.path.empty();
        }
    if (!missing.empty()) {
        r.status = Status::fail;
        r.summary = "missing: " + str::join(missing, ", ");
        bool dnn_missing = false;
        for (const auto& f : p.files) dnn_missing = dnn_missing || (f.group == "cudnn" && f.path.empty());
        r.advice = dnn_missing
                       ? "This cuDNN " + p.dnn->version.str() + " is incomplete: every one of its " +
                             std::to_string(cudnn_names(p.dnn->version.major()).size()) +
                             " libraries must sit in one folder; unpack the whole archive again (cudaenv install or add)."
                       : "The CUDA runtime library " + cudart_name(cuda_major) +
                             " is missing from the toolkit: reinstall CUDA " + p.tk->version.str() + ".";
        return r;
    }
    r.summary = std::to_string(present) + " of " + std::to_string(required) + " required libraries found";
    if (full && !missing_optional.empty()) {
        r.status = Status::warn;
        r.summary += "; the toolkit lacks " + str::join(missing_optional, ", ");
        r.advice = "This toolkit is incomplete: programs that use those libraries will fail to start.";
    }
    return r;
}

// ---- Step 2: loading ----------------------------------------------------------
template <class F>
bool resolve(const platform::DynLib& lib, F& fn, const char* name, std::vector<std::string>& missing) {
    fn = reinterpret_cast<F>(lib.symbol(name));
    if (!fn) missing.push_back(name);
    return fn != nullptr;
}

StepResult step_load(Probe& p) {
    StepResult r{"load", Status::ok, "", "", nlohmann::json::object()};
    auto loads = nlohmann::json::array();
    std::vector<std::string> failed;
    std::string first_error;
    // cuDNN's DLLs import the toolkit's (cublas64_*.dll, cublasLt64_*.dll),
    // which sit in the toolkit's bin\, not beside them.
    for (const auto& d : p.tk->bin_dirs) platform::add_library_search_dir(d);
    for (const auto& f : p.files) {
        if (f.path.empty() || f.group == "toolkit") continue;  // the toolkit's other libraries are not loaded
        std::string error;
        auto lib = platform::DynLib::open(f.path, error);
        loads.push_back({{"name", f.name}, {"path", fsx::to_utf8(f.path)}, {"loaded", lib.loaded()},
                         {"error", error.empty() ? nlohmann::json(nullptr) : nlohmann::json(error)}});
        if (!lib.loaded()) {
            failed.push_back(f.name);
            if (first_error.empty()) first_error = error;
            continue;
        }
        if (f.group == "cudart") p.cudart = std::move(lib);
        else if (f.name == cudnn_names(p.dnn->version.major()).front()) p.cudnn_shim = std::move(lib);
        else p.libs.push_back(std::move(lib));
    }
    r.details["libraries"] = loads;

    std::vector<std::string> missing_cuda, missing_cudnn;
    if (p.cudart.loaded()) {
        auto& c = p.cuda;
        auto& m = missing_cuda;
        bool ok = true;
        ok &= resolve(p.cudart, c.runtime_get_version, "cudaRuntimeGetVersion", m);
        ok &= resolve(p.cudart, c.driver_get_version, "cudaDriverGetVersion", m);
        ok &= resolve(p.cudart, c.get_device_count, "cudaGetDeviceCount", m);
        ok &= resolve(p.cudart, c.set_device, "cudaSetDevice", m);
        ok &= resolve(p.cudart, c.device_get_attribute, "cudaDeviceGetAttribute", m);
        ok &= resolve(p.cudart, c.malloc, "cudaMalloc", m);
        ok &= resolve(p.cudart, c.free, "cudaFree", m);
        ok &= resolve(p.cudart, c.memcpy, "cudaMemcpy", m);
        ok &= resolve(p.cudart, c.event_create, "cudaEventCreate", m);
        ok &= resolve(p.cudart, c.event_record, "cudaEventRecord", m);
        ok &= resolve(p.cudart, c.event_synchronize, "cudaEventSynchronize", m);
        ok &= resolve(p.cudart, c.event_elapsed_time, "cudaEventElapsedTime", m);
        ok &= resolve(p.cudart, c.event_destroy, "cudaEventDestroy", m);
        ok &= resolve(p.cudart, c.device_synchronize, "cudaDeviceSynchronize", m);
        ok &= resolve(p.cudart, c.get_error_string, "cudaGetErrorString", m);
        p.cuda_ok = ok;
        // Optional: without them the convolution is not also timed as a CUDA graph.
        std::vector<std::string> no_graphs;
        auto& g = c.graphs;
        resolve(p.cudart, g.stream_create, "cudaStreamCreate", no_graphs);
        resolve(p.cudart, g.stream_destroy, "cudaStreamDestroy", no_graphs);
        resolve(p.cudart, g.stream_synchronize, "cudaStreamSynchronize", no_graphs);
        resolve(p.cudart, g.begin_capture, "cudaStreamBeginCapture", no_graphs);
        resolve(p.cudart, g.end_capture, "cudaStreamEndCapture", no_graphs);
        resolve(p.cudart, g.instantiate, "cudaGraphInstantiateWithFlags", no_graphs);
        resolve(p.cudart, g.launch, "cudaGraphLaunch", no_graphs);
        resolve(p.cudart, g.exec_destroy, "cudaGraphExecDestroy", no_graphs);
        resolve(p.cudart, g.graph_destroy, "cudaGraphDestroy", no_graphs);
        if (!no_graphs.empty()) r.details["cuda_graph_api_missing"] = no_graphs;
    }
    if (p.cudnn_shim.loaded()) {
        // Every symbol comes from the shim, which forwards to its sub-libraries.
        auto& c = p.cudnn;
        auto& l = p.cudnn_shim;
        auto& m = missing_cudnn;
        bool ok = true;
        ok &= resolve(l, c.get_version, "cudnnGetVersion", m);
        ok &= resolve(l, c.get_cudart_version, "cudnnGetCudartVersion", m);
        ok &= resolve(l, c.get_error_string, "cudnnGetErrorString", m);
        ok &= resolve(l, c.create, "cudnnCreate", m);
        ok &= resolve(l, c.destroy, "cudnnDestroy", m);
        ok &= resolve(l, c.create_tensor, "cudnnCreateTensorDescriptor", m);
        ok &= resolve(l, c.set_tensor4d, "cudnnSetTensor4dDescriptor", m);
        ok &= resolve(l, c.destroy_tensor, "cudnnDestroyTensorDescriptor", m);
        ok &= resolve(l, c.create_filter, "cudnnCreateFilterDescriptor", m);
        ok &= resolve(l, c.set_filter4d, "cudnnSetFilter4dDescriptor", m);
        ok &= resolve(l, c.destroy_filter, "cudnnDestroyFilterDescriptor", m);
        ok &= resolve(l, c.create_conv, "cudnnCreateConvolutionDescriptor", m);
        ok &= resolve(l, c.set_conv2d, "cudnnSetConvolution2dDescriptor", m);
        ok &= resolve(l, c.set_math_type, "cudnnSetConvolutionMathType", m);
        ok &= resolve(l, c.destroy_conv, "cudnnDestroyConvolutionDescriptor", m);
        ok &= resolve(l, c.output_dim, "cudnnGetConvolution2dForwardOutputDim", m);
        ok &= resolve(l, c.find_fwd, "cudnnFindConvolutionForwardAlgorithm", m);
        ok &= resolve(l, c.workspace_size, "cudnnGetConvolutionForwardWorkspaceSize", m);
        ok &= resolve(l, c.forward, "cudnnConvolutionForward", m);
        p.cudnn_ok = ok;
        std::vector<std::string> no_stream;
        resolve(l, c.set_stream, "cudnnSetStream", no_stream);
        // Optional: a cuDNN without the graph API is still checked through the legacy one.
        std::vector<std::string> no_graph;
        auto& b = c.backend;
        resolve(l, b.create, "cudnnBackendCreateDescriptor", no_graph);
        resolve(l, b.destroy, "cudnnBackendDestroyDescriptor", no_graph);
        resolve(l, b.finalize, "cudnnBackendFinalize", no_graph);
        resolve(l, b.set, "cudnnBackendSetAttribute", no_graph);
        resolve(l, b.get, "cudnnBackendGetAttribute", no_graph);
        resolve(l, b.execute, "cudnnBackendExecute", no_graph);
        if (!no_graph.empty()) r.details["graph_api_missing"] = no_graph;
    }
    r.details["missing_symbols"] = {{"cudart", missing_cuda}, {"cudnn", missing_cudnn}};
    if (!failed.empty()) {
        r.status = Status::fail;
        r.summary = "cannot load " + str::join(failed, ", ") + ": " + first_error;
        r.advice = "The library exists but the loader refused it (above is its exact reason): usually a library it "
                   "needs is missing or of the wrong version; keep each pair's libraries together and complete.";
        return r;
    }
    if (!missing_cuda.empty() || !missing_cudnn.empty()) {
        r.status = Status::fail;
        std::vector<std::string> all = missing_cuda;
        all.insert(all.end(), missing_cudnn.begin(), missing_cudnn.end());
        r.summary = "missing symbols: " + str::join(all, ", ");
        r.advice = "The library does not export the functions of its version: it is damaged, or a library of "
                   "another version carries its name; reinstall it.";
        return r;
    }
    size_t n = 0;
    for (const auto& l : loads) n += l["loaded"].get<bool>();
    r.summary = std::to_string(n) + " libraries loaded by absolute path, every symbol resolved";
    return r;
}

// ---- Step 2b: where each loaded library came from -----------------------------
// The words come from core/origin, which `cudaenv trace` uses too.
StepResult step_origins(Probe& p) {
    StepResult r{"origins", Status::ok, "", "", nlohmann::json::object()};
    origin::PairDirs dirs;
    dirs.toolkit_dirs = p.tk_dirs;
    dirs.toolkit_dirs.push_back(p.tk->root);
    dirs.cudnn_dirs = p.dnn_dirs;
    // A system cuDNN's root is /usr: its library folders stand for it instead.
    if (p.dnn && p.dnn->layout != layout::CudnnLayout::system) dirs.cudnn_dirs.push_back(p.dnn->root);
    origin::Classifier classifier(dirs, {});
    auto list = nlohmann::json::array();
    std::vector<std::string> strays_fail, strays_warn;
    for (const auto& path : platform::loaded_libraries()) {
        auto fp = fsx::from_utf8(path);
        auto name = fsx::to_utf8(fp.filename());
        auto fam = origin::family_of(name);
        if (fam == origin::Family::none) continue;  // not a CUDA library (core/cudalibs)
        // Where the file really is: a link inside the pair can point elsewhere.
        std::error_code ec;
        auto real = fsx::to_utf8(fs::weakly_canonical(fp, ec));
        if (ec) real = path;
        auto o = classifier.classify(fp);
        std::string where = o.kind == origin::Kind::driver ? "driver" : o.kind == origin::Kind::pair ? "pair" : "outside";
        list.push_back({{"name", name}, {"path", path}, {"real_path", real}, {"origin", where},
                        {"from", origin::kind_name(o.kind)}, {"where", o.where}});
        if (where != "outside") continue;
        auto lower = str::to_lower_ascii(name);
        bool core = lower.find("cudnn") != std::string::npos || lower.find("cudart") != std::string::npos;
        (core ? strays_fail : strays_warn).push_back((real == path ? path : path + " -> " + real) + " (" + o.where + ")");
    }
    r.details["loaded"] = list;
    if (!strays_fail.empty()) {
        r.status = Status::fail;
        r.summary = "loaded from outside the pair: " + str::join(strays_fail, ", ");
        r.advice = "Another CUDA/cuDNN on the library path won over this pair's own copy: remove that folder from "
                   "LD_LIBRARY_PATH/PATH (or System32/conda), or make this pair complete.";
    } else if (!strays_warn.empty()) {
        r.status = Status::warn;
        r.summary = "helper libraries from outside the pair: " + str::join(strays_warn, ", ");
        r.advice = "cuDNN found these CUDA libraries outside the pair; it works while their versions match.";
    } else {
        r.summary = std::to_string(list.size()) + " CUDA libraries loaded, all from the pair" +
                    (list.empty() ? "" : " (or the driver)");
    }
    return r;
}

// ---- Step 3: versions ---------------------------------------------------------
StepResult step_versions(Probe& p, int& runtime_version, int& driver_version) {
    StepResult r{"versions", Status::ok, "", "", nlohmann::json::object()};
    std::vector<std::string> notes, fails;
    std::string advice;
    const auto& tk = *p.tk;
    auto tk_mm = tk.version.prefix(2);

    int rt = 0, rt_err = p.cuda.runtime_get_version(&rt);
    int drv = 0, drv_err = p.cuda.driver_get_version(&drv);
    r.details["toolkit_version_files"] = tk.version.str();
    r.details["toolkit_version_source"] = tk.version_source;
    r.details["cudaRuntimeGetVersion"] = {{"status", cuda_error_name(rt_err)}, {"value", rt}};
    r.details["cudaDriverGetVersion"] = {{"status", cuda_error_name(drv_err)}, {"value", drv}};
    driver_version = drv_err == 0 ? drv : 0;
    if (rt_err != 0) {
        notes.push_back("cudaRuntimeGetVersion failed with " + std::to_string(rt_err) + " (" + cuda_error_name(rt_err) +
                        "), so the runtime version comes from the files: " + tk.version.str());
        runtime_version = tk.version.major() * 1000 + tk.version.minor() * 10;
    } else {
        runtime_version = rt;
        auto rt_v = Version({rt / 1000, rt % 1000 / 10});
        if (!(rt_v == tk_mm)) {
            fails.push_back("the CUDA runtime library reports " + rt_v.str() + " but the toolkit's files say " + tk_mm.str());
            advice = "The folder holds a CUDA runtime of another version: reinstall the toolkit, or remove the stray libcudart.";
        } else {
            notes.push_back("runtime " + rt_v.str());
        }
    }
    if (p.dnn && p.cudnn_ok) {
        const auto& c = *p.dnn;
        long long v = static_cast<long long>(p.cudnn.get_version());
        long long cv = static_cast<long long>(p.cudnn.get_cudart_version());
        auto d8 = decode_cudnn_v8(v), d9 = decode_cudnn_v9(v), d = decode_cudnn(v);
        Version lib_v({d.major, d.minor, d.patch});
        r.details["cudnnGetVersion"] = {
            {"value", v},
            {"as_cudnn8", std::to_string(d8.major) + "." + std::to_string(d8.minor) + "." + std::to_string(d8.patch)},
            {"as_cudnn9", std::to_string(d9.major) + "." + std::to_string(d9.minor) + "." + std::to_string(d9.patch)},
            {"decoded", lib_v.str()}};
        r.details["cudnn_version_files"] = c.version.str();
        r.details["cudnnGetCudartVersion"] = cv;
        if (!lib_v.matches(c.version.prefix(3)) && !c.version.prefix(3).matches(lib_v)) {
            fails.push_back("libcudnn reports " + lib_v.str() + " but the headers/files say " + c.version.str());
            if (advice.empty())
                advice = "cuDNN libraries and headers of different releases are mixed in this folder: unpack one release cleanly.";
        } else {
            notes.push_back("cuDNN " + lib_v.str());
        }
        int dnn_cuda_major = static_cast<int>(cv / 1000);
        if (cv > 0 && dnn_cuda_major != tk.version.major()) {
            fails.push_back("cuDNN " + c.version.str() + " was built for CUDA " + cuda_int_version(static_cast<int>(cv)) +
                            ", the toolkit is CUDA " + tk_mm.str());
            if (advice.empty())
                advice = "Use the cuDNN build for CUDA " + std::to_string(tk.version.major()) + " (the _cuda" +
                         std::to_string(tk.version.major()) + " archive) with this toolkit.";
        } else if (cv > 0) {
            notes.push_back("built with CUDA " + cuda_int_version(static_cast<int>(cv)));
        }
        bool unconfirmed = false;
        auto conflict = Compat::get().pair_conflict(tk.version, c.version, &unconfirmed);
        r.details["support_matrix"] = conflict.empty() ? nlohmann::json("fits") : nlohmann::json(conflict);
        if (!conflict.empty()) {
            if (unconfirmed) {
                notes.push_back(conflict);
                if (r.status == Status::ok) r.status = Status::warn;
            } else {
                fails.push_back(conflict);
                if (advice.empty()) advice = "Pick a cuDNN whose support matrix lists this CUDA version.";
            }
        }
    }
    if (!fails.empty()) {
        r.status = Status::fail;
        r.summary = str::join(fails, "; ");
        r.advice = advice;
    } else {
        if (rt_err != 0 && r.status == Status::ok) r.status = Status::warn;
        r.summary = str::join(notes, "; ");
        if (rt_err != 0) r.advice = cuda_error_advice(rt_err);
    }
    return r;
}

StepResult step_gpu(Probe& p, int runtime_version, int driver_cuda) {
    StepResult r{"gpu", Status::ok, "", "", nlohmann::json::object()};
    const auto& tk = *p.tk;
    const auto& compat = Compat::get();
    auto sysdrv = kernel_driver_version();
    r.details["driver_version"] = sysdrv ? nlohmann::json(*sysdrv) : nlohmann::json(nullptr);
    r.details["driver_cuda"] = driver_cuda ? nlohmann::json(cuda_int_version(driver_cuda)) : nlohmann::json(nullptr);
    const auto* fam = compat.cuda_family(tk.version.major());
    const auto* rel = compat.cuda_release(tk.version);
    std::string floor = fam ? fam->minor_compat_driver(platform::is_windows) : "";
    std::string ga = rel ? rel->min_driver(platform::is_windows) : "";
    std::vector<std::string> notes;
    if (driver_cuda == 0) {
        r.status = Status::fail;
        r.summary = "no NVIDIA driver on this machine (cudaDriverGetVersion = 0): libraries and versions were checked, "
                    "the GPU steps were not run";
        r.advice = "Install the NVIDIA driver" + (ga.empty() ? std::string() : " (" + ga + " or newer for CUDA " + tk.version.prefix(2).str() + ")") +
                   " to run the convolution; without a GPU only steps 1-3 can be checked.";
        return r;
    }
    std::string drv_text = "driver " + (sysdrv ? *sysdrv + " " : std::string()) + "supports CUDA " + cuda_int_version(driver_cuda);
    if (driver_cuda >= runtime_version) {
        notes.push_back(drv_text);
    } else if (driver_cuda / 1000 == runtime_version / 1000) {
        // Minor-version compatibility: any driver of the major's floor runs a newer minor.
        r.status = Status::warn;
        notes.push_back(drv_text + ", older than CUDA " + cuda_int_version(runtime_version) +
                        ": runs through minor-version compatibility (driver >= " + (floor.empty() ? "?" : floor) +
                        "), but PTX newer than the driver cannot be JIT-compiled");
        r.advice = "Update the NVIDIA driver to run every CUDA " + cuda_int_version(runtime_version) + " feature.";
    } else {
        r.status = Status::fail;
        r.summary = drv_text + ", older than this toolkit's CUDA " + cuda_int_version(runtime_version) +
                    (ga.empty() ? "" : " (needs driver >= " + ga + ")");
        r.advice = "Update the NVIDIA driver (nvidia-smi's \"CUDA Version\" is the newest CUDA the driver supports), "
                   "or use an older toolkit.";
        return r;
    }
    int count = 0, err = p.cuda.get_device_count(&count);
    r.details["cudaGetDeviceCount"] = {{"status", cuda_error_name(err)}, {"value", count}};
    if (err != 0 || count == 0) {
        r.status = Status::fail;
        r.summary = err ? "cudaGetDeviceCount failed: " + cuda_error_name(err) : "the driver sees no GPU";
        r.advice = err ? cuda_error_advice(err) : cuda_error_advice(100);
        return r;
    }
    if (int e = p.cuda.set_device(0); e != 0) {
        r.status = Status::fail;
        r.summary = "cudaSetDevice(0) failed: " + cuda_error_name(e);
        r.advice = cuda_error_advice(e);
        return r;
    }
    int mj = 0, mn = 0, sms = 0;
    int e1 = p.cuda.device_get_attribute(&mj, cuda_api::cudaDevAttrComputeCapabilityMajor, 0);
    int e2 = p.cuda.device_get_attribute(&mn, cuda_api::cudaDevAttrComputeCapabilityMinor, 0);
    p.cuda.device_get_attribute(&sms, cuda_api::cudaDevAttrMultiProcessorCount, 0);
    if (e1 || e2) {
        r.status = Status::fail;
        r.summary = "cudaDeviceGetAttribute failed: " + cuda_error_name(e1 ? e1 : e2);
        r.advice = cuda_error_advice(e1 ? e1 : e2);
        return r;
    }
    p.cc_major = mj;
    p.cc_minor = mn;
    // cudaFree(nullptr) creates the context now (CUDA 11 would at the first
    // allocation), so that it is never inside the convolution's timed phase.
    if (int e = p.cuda.free(nullptr); e != 0) {
        r.status = Status::fail;
        r.summary = "creating a CUDA context failed: " + cuda_error_name(e);
        r.advice = cuda_error_advice(e);
        return r;
    }
    Version cc({mj, mn});
    r.details["devices"] = count;
    r.details["compute_capability"] = cc.str();
    r.details["multiprocessors"] = sms;
    notes.push_back(std::to_string(count) + " GPU" + (count > 1 ? "s" : "") + ", compute capability " + cc.str());
    std::vector<std::string> fails;
    if (fam && !fam->cc_min.empty() && cc < fam->cc_min) {
        std::string msg = "CUDA " + std::to_string(fam->major) + " supports compute capability " + fam->cc_min.str() +
                          " and newer, this GPU is " + cc.str();
        if (fam->cc_unconfirmed) notes.push_back(msg + " (unconfirmed)");
        else fails.push_back(msg);
    }
    if (p.dnn) {
        auto s = compat.cudnn(p.dnn->version);
        if (s.row && s.row->cc && !s.row->cc->contains(cc)) {
            std::string msg = "cuDNN " + p.dnn->version.str() + " supports compute capability " + s.row->cc->str() +
                              ", this GPU is " + cc.str();
            if (s.exact) fails.push_back(msg);
            else {
                notes.push_back(msg + " (judged from cuDNN " + s.row->versions.str() + "; unconfirmed)");
                if (r.status == Status::ok) r.status = Status::warn;
            }
        }
    }
    if (!fails.empty()) {
        r.status = Status::fail;
        r.summary = str::join(fails, "; ");
        r.advice = "This GPU is outside what the pair supports (CUDNN_STATUS_ARCH_MISMATCH at run time): use a "
                   "toolkit and cuDNN whose support matrix lists compute capability " + cc.str() + ".";
        return r;
    }
    r.summary = str::join(notes, "; ");
    return r;
}

// Ends the process once `timeout_s` of its own work has passed; time spent
// waiting for the GPU lock is added back with extend().
class Watchdog {
public:
    explicit Watchdog(double timeout_s) {
        if (timeout_s <= 0) return;
        deadline_ms_ = now_ms() + static_cast<long long>(timeout_s * 1000);
        std::thread([this] {
            while (now_ms() < deadline_ms_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            std::_Exit(probe_timeout_status);
        }).detach();
    }
    void extend(double ms) { deadline_ms_ += static_cast<long long>(ms); }

private:
    static long long now_ms() {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    std::atomic<long long> deadline_ms_{0};
};

long long unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

int run_probe(const ProbeOptions& opts, std::ostream& out) {
    // Lives as long as the process: its thread may still be watching at exit.
    static Watchdog* watchdog = new Watchdog(opts.gpu_lock.empty() ? 0 : opts.timeout_s);
    Probe p{opts, out, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, false, false, 0, 0};
    auto skip = [&](const char* step, const std::string& why) { p.emit({step, Status::skip, why, "", nlohmann::json::object()}); };
    p.tk = detect_toolkit(opts.toolkit);
    if (!p.tk) {
        p.emit({"files", Status::fail, "no CUDA toolkit in '" + fsx::to_utf8(opts.toolkit) + "'",
                "The folder is gone or no longer holds a toolkit: run `cudaenv list` and re-add it.", nlohmann::json::object()});
        return 0;
    }
    if (!opts.cudnn.empty()) {
        p.dnn = detect_cudnn(opts.cudnn, opts.cudnn_variant);
        if (!p.dnn) {
            p.emit({"files", Status::fail, "no cuDNN in '" + fsx::to_utf8(opts.cudnn) + "'",
                    "The folder is gone or no longer holds cuDNN: run `cudaenv list` and re-add it.", nlohmann::json::object()});
            return 0;
        }
    }
    auto files = step_files(p);
    p.emit(files);
    if (files.status == Status::fail) return 0;
    auto load = step_load(p);
    p.emit(load);
    p.emit(step_origins(p));
    if (load.status == Status::fail || !p.cuda_ok) return 0;

    int runtime_version = 0, driver_cuda = 0;
    p.emit(step_versions(p, runtime_version, driver_cuda));
    auto gpu = step_gpu(p, runtime_version, driver_cuda);
    p.emit(gpu);
    if (gpu.status == Status::fail) return 0;
    if (!p.dnn) {
        skip("conv", "no cuDNN in this pair: the convolution needs cuDNN");
        return 0;
    }
    ConvRequest req{false, p.cc_major, p.cc_minor, p.dnn->version.major()};
    const bool fp16 = p.cc_major >= 7;
    auto ms_since = [](std::chrono::steady_clock::time_point t0) {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    };
    // With other pairs checked at once (gpu_lock), the GPU is shared in two
    // phases. Warm-up, untimed, under a shared lock, so all pairs do it at
    // once: the first convolutions of a process load cuDNN's kernels (lazily,
    // at first launch), create its handles and query its heuristics, which
    // takes most of a check. Then the timed phase, under the exclusive lock:
    // one pair at a time, and never while another pair warms up, so the
    // timings stay clean. (A failure in the warm-up is the timed run's to report.)
    double warm_ms = 0, waited_ms = 0;
    long long warm_from = 0, warm_to = 0;
    auto take = [&](std::optional<platform::FileLock>& token, platform::FileLock::Mode mode) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            token.emplace(opts.gpu_lock, true, mode);
        } catch (const std::exception&) {
            // No lock file: go on unlocked; the parent made it, so this is rare.
        }
        const double ms = ms_since(t0);
        watchdog->extend(ms);
        return ms;
    };
    ConvCheck conv32(p.cuda, p.cudnn, opts, req);
    std::optional<ConvCheck> conv16;
    if (fp16) conv16.emplace(p.cuda, p.cudnn, opts, ConvRequest{true, req.cc_major, req.cc_minor, req.cudnn_major});
    {
        std::optional<platform::FileLock> shared;
        if (!opts.gpu_lock.empty()) waited_ms += take(shared, platform::FileLock::Mode::shared);
        const auto t0 = std::chrono::steady_clock::now();
        warm_from = unix_ms();
        const bool warm = !opts.gpu_lock.empty();  // alone, the timed phase's own tuning warms up
        conv32.prepare(warm);
        if (conv16) conv16->prepare(warm);
        warm_ms = ms_since(t0);
        warm_to = unix_ms();
    }
    std::optional<platform::FileLock> gpu_token;
    if (!opts.gpu_lock.empty()) waited_ms += take(gpu_token, platform::FileLock::Mode::exclusive);
    auto timed = [&](StepResult r, long long from) {
        if (!opts.gpu_lock.empty()) {
            r.details["gpu_wait_ms"] = waited_ms;
            r.details["warm_up_ms"] = warm_ms;
            r.details["warm_up_unix_ms"] = {warm_from, warm_to};
        }
        r.details["timed_phase_unix_ms"] = {from, unix_ms()};
        return r;
    };
    auto from = unix_ms();
    auto conv = timed(conv32.measure(), from);
    p.emit(conv);
    // cuDNN loads more libraries once it runs (cuBLAS, NVRTC): look again.
    p.emit(step_origins(p));
    if (conv.status == Status::fail) return 0;
    if (!fp16) {
        skip("conv_fp16", "compute capability " + std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor) +
                              " has no tensor cores");
        return 0;
    }
    from = unix_ms();
    p.emit(timed(conv16->measure(), from));
    return 0;
}

}  // namespace cudaenv::check
