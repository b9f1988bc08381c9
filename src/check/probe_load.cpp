// Step 2 of `check`: the pair's libraries loaded by absolute path, every
// symbol of check/api.hpp's lists resolved, and where each loaded library
// came from.
#include "check/probe_steps.hpp"
#include "core/origin.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

namespace {

template <class F>
bool resolve(const platform::DynLib& lib, F& fn, const char* name, std::vector<std::string>& missing) {
    fn = reinterpret_cast<F>(lib.symbol(name));
    if (!fn) missing.push_back(name);
    return fn != nullptr;
}

// Loads each required library found in step 1 (not the toolkit's others):
// the runtime alone (`runtime`), or all the others; keeping cudart and
// cuDNN's front library; `loads` says how each went.
void load_libraries(Probe& p, bool runtime, nlohmann::json& loads, std::vector<std::string>& failed,
                    std::string& first_error) {
    // cuDNN's DLLs import the toolkit's (cublas64_*.dll, cublasLt64_*.dll),
    // which sit in the toolkit's bin\, not beside them.
    if (runtime)
        for (const auto& d : p.tk->bin_dirs) platform::add_library_search_dir(d);
    for (const auto& f : p.files) {
        if (f.path.empty() || f.group == "toolkit" || (f.group == "cudart") != runtime) continue;
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
}

#define CUDAENV_RESOLVE(Type, field, symbol, R, params) ok &= resolve(lib, fns.field, #symbol, missing);
#define CUDAENV_RESOLVE_OPTIONAL(Type, field, symbol, R, params) resolve(lib, fns.field, #symbol, absent);

// The optional groups: `absent` gets the names that are not there.
void resolve_graphs(const platform::DynLib& lib, CudaFns::Graphs& fns, std::vector<std::string>& absent) {
    CUDAENV_CUDART_GRAPHS(CUDAENV_RESOLVE_OPTIONAL)
}
void resolve_stream(const platform::DynLib& lib, CudnnFns& fns, std::vector<std::string>& absent) {
    CUDAENV_CUDNN_STREAM(CUDAENV_RESOLVE_OPTIONAL)
}
void resolve_backend(const platform::DynLib& lib, CudnnFns::Backend& fns, std::vector<std::string>& absent) {
    CUDAENV_CUDNN_BACKEND(CUDAENV_RESOLVE_OPTIONAL)
}

// The CUDA runtime's functions; the CUDA-graph ones are optional (without
// them the convolution is not also timed as a graph).
void resolve_cudart(Probe& p, StepResult& r, std::vector<std::string>& missing) {
    const auto& lib = p.cudart;
    bool ok = true;
    auto& fns = p.cuda;
    CUDAENV_CUDART_REQUIRED(CUDAENV_RESOLVE)
    p.cuda_ok = ok;
    std::vector<std::string> absent;
    resolve_graphs(lib, p.cuda.graphs, absent);
    if (!absent.empty()) r.details["cuda_graph_api_missing"] = absent;
}

// cuDNN's functions, every one from the front library, which forwards to its
// sub-libraries; without the graph API a cuDNN is checked through the legacy one.
void resolve_cudnn(Probe& p, StepResult& r, std::vector<std::string>& missing) {
    const auto& lib = p.cudnn_shim;
    bool ok = true;
    auto& fns = p.cudnn;
    CUDAENV_CUDNN_REQUIRED(CUDAENV_RESOLVE)
    p.cudnn_ok = ok;
    std::vector<std::string> no_stream;  // without it only the CUDA-graph timing is left out: not reported
    resolve_stream(lib, p.cudnn, no_stream);
    std::vector<std::string> absent;
    resolve_backend(lib, p.cudnn.backend, absent);
    if (!absent.empty()) r.details["graph_api_missing"] = absent;
}

#undef CUDAENV_RESOLVE
#undef CUDAENV_RESOLVE_OPTIONAL

}  // namespace

StepResult step_load(Probe& p) {
    StepResult r{"load", Status::ok, "", "", nlohmann::json::object()};
    auto loads = nlohmann::json::array();
    std::vector<std::string> failed;
    std::string first_error;
    std::vector<std::string> missing_cuda, missing_cudnn;
    // The runtime first: GPU 0's context is created (the slowest part of a
    // check's start) while cuDNN's libraries load.
    load_libraries(p, true, loads, failed, first_error);
    if (p.cudart.loaded()) resolve_cudart(p, r, missing_cuda);
    if (p.cuda_ok)
        p.context = std::async(std::launch::async, [cuda = p.cuda] {
            if (cuda.set_device(0) == 0) cuda.free(nullptr);  // an error is step 4's to report, asked again there
        });
    load_libraries(p, false, loads, failed, first_error);
    r.details["libraries"] = loads;
    if (p.cudnn_shim.loaded()) resolve_cudnn(p, r, missing_cudnn);
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

// Where each loaded library came from, in core/origin's words, which `cudaenv
// trace` uses too.
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

}  // namespace cudaenv::check
