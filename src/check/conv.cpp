// Step 4: a convolution through cuDNN's legacy API and through its graph API
// (conv_graph.cpp), each verified against a CPU reference and timed with CUDA
// events; the faster is the pair's result.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "check/conv_graph.hpp"
#include "check/names.hpp"
#include "check/probe_internal.hpp"

namespace cudaenv::check {

unsigned short float_to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t mant = x & 0x7FFFFFu;
    int exp = static_cast<int>((x >> 23) & 0xFF);
    if (exp == 0xFF) return static_cast<unsigned short>(sign | 0x7C00u | (mant ? 0x200u : 0u));
    int e = exp - 127 + 15;
    if (e >= 0x1F) return static_cast<unsigned short>(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return static_cast<unsigned short>(sign);
        mant |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1))) ++half;
        return static_cast<unsigned short>(sign | half);
    }
    uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1))) ++half;  // may carry into the exponent: still right
    return static_cast<unsigned short>(sign | half);
}

float half_to_float(unsigned short h) {
    uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1F;
    uint32_t mant = h & 0x3FFu;
    uint32_t x;
    if (exp == 0) {
        if (mant == 0) {
            x = sign;
        } else {
            int e = -1;
            do {
                ++e;
                mant <<= 1;
            } while (!(mant & 0x400u));
            x = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) | ((mant & 0x3FFu) << 13);
        }
    } else if (exp == 0x1F) {
        x = sign | 0x7F800000u | (mant << 13);
    } else {
        x = sign | (static_cast<uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

namespace {

using Failure = ConvFailure;

// Device buffers and descriptors of the legacy path, released whatever happens.
struct Resources {
    const CudaFns& cuda;
    const CudnnFns& cudnn;
    std::vector<void*> buffers;
    cudnn_api::cudnnHandle_t handle = nullptr;
    cudnn_api::cudnnTensorDescriptor_t x = nullptr, y = nullptr;
    cudnn_api::cudnnFilterDescriptor_t w = nullptr;
    cudnn_api::cudnnConvolutionDescriptor_t conv = nullptr;
    cuda_api::cudaEvent_t start = nullptr, stop = nullptr;
    ~Resources() {
        for (auto* b : buffers) cuda.free(b);
        if (start) cuda.event_destroy(start);
        if (stop) cuda.event_destroy(stop);
        if (x) cudnn.destroy_tensor(x);
        if (y) cudnn.destroy_tensor(y);
        if (w) cudnn.destroy_filter(w);
        if (conv) cudnn.destroy_conv(conv);
        if (handle) cudnn.destroy(handle);
    }
};

const char* algo_name(int a) {
    static const char* names[] = {"IMPLICIT_GEMM", "IMPLICIT_PRECOMP_GEMM", "GEMM",     "DIRECT",
                                  "FFT",           "FFT_TILING",            "WINOGRAD", "WINOGRAD_NONFUSED"};
    return a >= 0 && a < 8 ? names[a] : "unknown";
}

const char* math_name(int m) {
    static const char* names[] = {"DEFAULT_MATH", "TENSOR_OP_MATH", "TENSOR_OP_MATH_ALLOW_CONVERSION", "FMA_MATH"};
    return m >= 0 && m < 4 ? names[m] : "unknown";
}

std::string fmt(double v, int prec) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(prec);
    s << v;
    return s.str();
}

// What one way of running the convolution measured.
struct Measured {
    double rel = 0, max_abs = 0;
    size_t samples = 0;
    std::vector<double> times;  // sorted
    double median() const {
        return times.size() % 2 ? times[times.size() / 2] : (times[times.size() / 2 - 1] + times[times.size() / 2]) / 2;
    }
};

}  // namespace

StepResult run_conv(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req) {
    StepResult r;
    r.step = req.half ? "conv_fp16" : "conv";
    const auto& sh = opts.shape;
    const int major = req.cudnn_major;
    auto cuda_fail = [&](const char* what, int code) {
        return Failure{std::string(what) + " failed: " + cuda_error_name(code) +
                           (cuda.get_error_string ? std::string(" (") + cuda.get_error_string(code) + ")" : ""),
                       cuda_error_advice(code), {{"call", what}, {"cuda_error", code}}};
    };
    auto cudnn_fail = [&](const char* what, int code) {
        std::string text = cudnn.get_error_string ? cudnn.get_error_string(code) : "";
        return Failure{std::string(what) + " failed: " + cudnn_status_name(major, code) +
                           (text.empty() ? "" : " (" + text + ")"),
                       cudnn_status_advice(major, code), {{"call", what}, {"cudnn_status", code}}};
    };
    try {
        Resources res{cuda, cudnn, {}, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr};
        const size_t elem = req.half ? 2 : 4;
        const int dtype = req.half ? cudnn_api::CUDNN_DATA_HALF : cudnn_api::CUDNN_DATA_FLOAT;
        const int oh = sh.out_h(), ow = sh.out_w();
        const size_t nx = static_cast<size_t>(sh.n) * sh.c * sh.h * sh.w;
        const size_t nw = static_cast<size_t>(sh.k) * sh.c * sh.r * sh.s;
        const size_t ny = static_cast<size_t>(sh.n) * sh.k * oh * ow;

        // Random inputs; the reference uses exactly the values the GPU sees.
        std::mt19937 rng(12345);
        std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
        std::vector<float> hx(nx), hw(nw);
        for (auto& v : hx) v = dist(rng);
        for (auto& v : hw) v = dist(rng);
        std::vector<unsigned short> hx16, hw16;
        if (req.half) {
            hx16.resize(nx);
            hw16.resize(nw);
            for (size_t i = 0; i < nx; ++i) hx[i] = half_to_float(hx16[i] = float_to_half(hx[i]));
            for (size_t i = 0; i < nw; ++i) hw[i] = half_to_float(hw16[i] = float_to_half(hw[i]));
        }

        auto check_cuda = [&](const char* what, int code) {
            if (code != 0) throw cuda_fail(what, code);
        };
        auto check_cudnn = [&](const char* what, int code) {
            if (code != 0) throw cudnn_fail(what, code);
        };
        auto alloc = [&](size_t bytes) {
            void* p = nullptr;
            check_cuda("cudaMalloc", cuda.malloc(&p, bytes));
            res.buffers.push_back(p);
            return p;
        };
        void* dx = alloc(nx * elem);
        void* dw = alloc(nw * elem);
        void* dy = alloc(ny * elem);
        check_cuda("cudaMemcpy", cuda.memcpy(dx, req.half ? static_cast<const void*>(hx16.data()) : hx.data(), nx * elem,
                                             cuda_api::cudaMemcpyHostToDevice));
        check_cuda("cudaMemcpy", cuda.memcpy(dw, req.half ? static_cast<const void*>(hw16.data()) : hw.data(), nw * elem,
                                             cuda_api::cudaMemcpyHostToDevice));

        // fp32 (TF32 at worst) must be within 1e-3; fp16 outputs are rounded to
        // 11 bits, so they get 5e-3.
        const double tol = req.half ? 5e-3 : 1e-3;
        check_cuda("cudaEventCreate", cuda.event_create(&res.start));
        check_cuda("cudaEventCreate", cuda.event_create(&res.stop));

        // Runs `forward` once on an output filled with NaN (so an engine that
        // writes nothing cannot pass on an earlier result), checks it against a
        // CPU reference in double precision at sampled outputs (the full
        // reference would take the CPU seconds), then times it: warm-up, each
        // run between two events.
        auto measure = [&](const char* call, const std::function<int()>& forward) {
            Measured m;
            std::vector<unsigned char> nan(ny * elem, 0xFF);
            check_cuda("cudaMemcpy", cuda.memcpy(dy, nan.data(), nan.size(), cuda_api::cudaMemcpyHostToDevice));
            check_cudnn(call, forward());
            check_cuda("cudaDeviceSynchronize", cuda.device_synchronize());
            std::vector<float> hy(ny);
            if (req.half) {
                std::vector<unsigned short> hy16(ny);
                check_cuda("cudaMemcpy", cuda.memcpy(hy16.data(), dy, ny * elem, cuda_api::cudaMemcpyDeviceToHost));
                for (size_t i = 0; i < ny; ++i) hy[i] = half_to_float(hy16[i]);
            } else {
                check_cuda("cudaMemcpy", cuda.memcpy(hy.data(), dy, ny * elem, cuda_api::cudaMemcpyDeviceToHost));
            }
            m.samples = std::min<size_t>(ny, 8192);
            std::mt19937 pick(777);
            std::uniform_int_distribution<size_t> idx(0, ny - 1);
            double err2 = 0, ref2 = 0;
            bool finite = true;
            for (size_t s = 0; s < m.samples; ++s) {
                size_t i = m.samples == ny ? s : idx(pick);
                int x_ = static_cast<int>(i % static_cast<size_t>(ow));
                int y_ = static_cast<int>(i / static_cast<size_t>(ow) % static_cast<size_t>(oh));
                int k_ = static_cast<int>(i / (static_cast<size_t>(ow) * static_cast<size_t>(oh)) % static_cast<size_t>(sh.k));
                int n_ = static_cast<int>(i / (static_cast<size_t>(ow) * static_cast<size_t>(oh) * static_cast<size_t>(sh.k)));
                double acc = 0;
                for (int c = 0; c < sh.c; ++c)
                    for (int rr = 0; rr < sh.r; ++rr) {
                        int iy = y_ + rr - sh.pad;
                        if (iy < 0 || iy >= sh.h) continue;
                        for (int ss = 0; ss < sh.s; ++ss) {
                            int ix = x_ + ss - sh.pad;
                            if (ix < 0 || ix >= sh.w) continue;
                            acc += static_cast<double>(hx[((static_cast<size_t>(n_) * sh.c + c) * sh.h + iy) * sh.w + ix]) *
                                   hw[((static_cast<size_t>(k_) * sh.c + c) * sh.r + rr) * sh.s + ss];
                        }
                    }
                double got = hy[i];
                if (!std::isfinite(got)) finite = false;
                err2 += (got - acc) * (got - acc);
                ref2 += acc * acc;
                m.max_abs = std::max(m.max_abs, std::fabs(got - acc));
            }
            m.rel = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
            if (!finite) m.rel = INFINITY;
            if (!(m.rel < tol)) return m;  // the caller reports it; no point timing
            for (int i = 0; i < 3; ++i) check_cudnn(call, forward());
            for (int i = 0; i < std::max(1, opts.runs); ++i) {
                check_cuda("cudaEventRecord", cuda.event_record(res.start, nullptr));
                check_cudnn(call, forward());
                check_cuda("cudaEventRecord", cuda.event_record(res.stop, nullptr));
                check_cuda("cudaEventSynchronize", cuda.event_synchronize(res.stop));
                float ms = 0;
                check_cuda("cudaEventElapsedTime", cuda.event_elapsed_time(&ms, res.start, res.stop));
                m.times.push_back(ms);
            }
            std::sort(m.times.begin(), m.times.end());
            return m;
        };
        auto rel_json = [](double rel) { return std::isfinite(rel) ? nlohmann::json(rel) : nlohmann::json("inf"); };
        auto wrong = [&](const std::string& how, double rel, const nlohmann::json& details) {
            return Failure{"wrong results from the " + how + ": relative error " + (std::isfinite(rel) ? fmt(rel, 6) : "inf") +
                               " against the CPU reference (limit " + fmt(tol, 4) + ")",
                           "cuDNN computed a wrong convolution: the library or the driver is broken or mismatched; "
                           "reinstall this cuDNN and update the driver.",
                           details};
        };

        // ---- The legacy API (cudnnFindConvolutionForwardAlgorithm), as older frameworks use it.
        check_cudnn("cudnnCreate", cudnn.create(&res.handle));
        check_cudnn("cudnnCreateTensorDescriptor", cudnn.create_tensor(&res.x));
        check_cudnn("cudnnCreateTensorDescriptor", cudnn.create_tensor(&res.y));
        check_cudnn("cudnnCreateFilterDescriptor", cudnn.create_filter(&res.w));
        check_cudnn("cudnnCreateConvolutionDescriptor", cudnn.create_conv(&res.conv));
        check_cudnn("cudnnSetTensor4dDescriptor",
                    cudnn.set_tensor4d(res.x, cudnn_api::CUDNN_TENSOR_NCHW, dtype, sh.n, sh.c, sh.h, sh.w));
        check_cudnn("cudnnSetFilter4dDescriptor",
                    cudnn.set_filter4d(res.w, dtype, cudnn_api::CUDNN_TENSOR_NCHW, sh.k, sh.c, sh.r, sh.s));
        // fp16 data accumulates in fp32, as the frameworks do.
        check_cudnn("cudnnSetConvolution2dDescriptor",
                    cudnn.set_conv2d(res.conv, sh.pad, sh.pad, 1, 1, 1, 1, cudnn_api::CUDNN_CROSS_CORRELATION,
                                     cudnn_api::CUDNN_DATA_FLOAT));
        // fp32: default math, which lets cuDNN use TF32 tensor cores on Ampere and
        // newer (PyTorch's default, allow_tf32 = True); fp16: tensor-op math.
        int math = req.half ? cudnn_api::CUDNN_TENSOR_OP_MATH : cudnn_api::CUDNN_DEFAULT_MATH;
        check_cudnn("cudnnSetConvolutionMathType", cudnn.set_math_type(res.conv, math));
        int on = 0, oc = 0, ohh = 0, oww = 0;
        check_cudnn("cudnnGetConvolution2dForwardOutputDim", cudnn.output_dim(res.conv, res.x, res.w, &on, &oc, &ohh, &oww));
        if (on != sh.n || oc != sh.k || ohh != oh || oww != ow)
            throw Failure{"cuDNN computed a wrong output shape " + std::to_string(on) + "x" + std::to_string(oc) + "x" +
                              std::to_string(ohh) + "x" + std::to_string(oww),
                          "The cuDNN library is damaged or mismatched: reinstall this cuDNN.",
                          {}};
        check_cudnn("cudnnSetTensor4dDescriptor",
                    cudnn.set_tensor4d(res.y, cudnn_api::CUDNN_TENSOR_NCHW, dtype, sh.n, sh.k, oh, ow));

        // Let cuDNN time every algorithm and take the fastest that works.
        cudnn_api::ConvolutionFwdAlgoPerf perf[cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT]{};
        int returned = 0;
        check_cudnn("cudnnFindConvolutionForwardAlgorithm",
                    cudnn.find_fwd(res.handle, res.x, res.w, res.conv, res.y,
                                   cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT, &returned, perf));
        const cudnn_api::ConvolutionFwdAlgoPerf* best = nullptr;
        auto tried = nlohmann::json::array();
        for (int i = 0; i < std::min(returned, cudnn_api::CUDNN_CONVOLUTION_FWD_ALGO_COUNT); ++i) {
            tried.push_back({{"algo", algo_name(perf[i].algo)},
                             {"status", cudnn_status_name(major, perf[i].status)},
                             {"ms", perf[i].time},
                             {"math", math_name(perf[i].mathType)}});
            if (!best && perf[i].status == 0) best = &perf[i];
        }
        if (!best)
            throw Failure{"no convolution algorithm works on this GPU (" + std::to_string(returned) + " tried)",
                          "This cuDNN cannot run a standard convolution here: use a cuDNN release that supports this GPU.",
                          {{"algorithms", tried}}};
        // Run with the math type Find measured the winner with (as the frameworks do).
        check_cudnn("cudnnSetConvolutionMathType", cudnn.set_math_type(res.conv, best->mathType));
        size_t ws_bytes = 0;
        check_cudnn("cudnnGetConvolutionForwardWorkspaceSize",
                    cudnn.workspace_size(res.handle, res.x, res.w, res.conv, res.y, best->algo, &ws_bytes));
        void* ws = ws_bytes ? alloc(ws_bytes) : nullptr;
        float alpha = 1.0f, beta = 0.0f;
        Measured legacy = measure("cudnnConvolutionForward", [&] {
            return cudnn.forward(res.handle, &alpha, res.x, dx, res.w, dw, res.conv, best->algo, ws, ws_bytes, &beta,
                                 res.y, dy);
        });
        bool tf32 = !req.half && req.cc_major >= 8 && best->mathType != cudnn_api::CUDNN_FMA_MATH;
        nlohmann::json legacy_json = {{"algo", algo_name(best->algo)},
                                      {"math", math_name(best->mathType)},
                                      {"workspace_bytes", ws_bytes},
                                      {"rel_error", rel_json(legacy.rel)},
                                      {"max_abs_error", legacy.max_abs},
                                      {"algorithms", tried}};
        r.details = {{"shape", sh.str()},
                     {"dtype", req.half ? "float16" : "float32"},
                     {"layout", "NCHW"},
                     {"tolerance", tol},
                     {"samples", legacy.samples},
                     {"legacy", legacy_json}};
        if (!(legacy.rel < tol))
            throw wrong(std::string("legacy API (") + algo_name(best->algo) + ")", legacy.rel, r.details);
        legacy_json["median_ms"] = legacy.median();
        r.details["legacy"] = legacy_json;

        // ---- The graph API, the way the frameworks reach cuDNN's engines.
        std::optional<GraphConv> graph;
        std::optional<Measured> graph_m;
        std::optional<Failure> graph_problem;
        if (cudnn.backend.available()) {
            graph.emplace(cuda, cudnn, res.handle, major);
            try {
                graph->build_and_tune(sh, req.half, dx, dw, dy, 10, 1.5);
                graph_m = measure("cudnnBackendExecute", [&] { return graph->forward(); });
            } catch (const Failure& f) {
                graph_problem = f;
            }
            nlohmann::json gj = {{"configs", graph->candidates_json()}};
            if (graph_m) {
                gj["engine"] = graph->engine();
                gj["tensor_cores"] = graph->tensor_cores();
                gj["workspace_bytes"] = graph->workspace_bytes();
                gj["rel_error"] = rel_json(graph_m->rel);
                gj["max_abs_error"] = graph_m->max_abs;
                if (!graph_m->times.empty()) gj["median_ms"] = graph_m->median();
            } else if (graph_problem) {
                gj["error"] = graph_problem->summary;
                if (graph_problem->details.contains("call")) gj["call"] = graph_problem->details["call"];
                if (graph_problem->details.contains("cudnn_status"))
                    gj["cudnn_status"] = graph_problem->details["cudnn_status"];
            }
            r.details["graph"] = gj;
            if (graph_m && !(graph_m->rel < tol))
                throw wrong("graph API (" + graph->label() + ")", graph_m->rel, r.details);
        } else {
            r.details["graph"] = {{"error", "this cuDNN has no graph (backend) API"}};
        }

        // The faster of the two is what this pair delivers.
        const bool use_graph = graph_m && graph_m->median() < legacy.median();
        const Measured& m = use_graph ? *graph_m : legacy;
        const double median = m.median();
        const double tflops = median > 0 ? sh.flops() / (median * 1e-3) / 1e12 : 0;
        if (use_graph) tf32 = !req.half && req.cc_major >= 8 && graph->tensor_cores();
        r.details["api"] = use_graph ? "graph" : "legacy";
        r.details["algo"] = use_graph ? graph->label() : std::string(algo_name(best->algo));
        r.details["math"] = use_graph ? (graph->tensor_cores() ? "tensor cores" : "no tensor cores")
                                      : std::string(math_name(best->mathType));
        r.details["tf32_possible"] = tf32;
        r.details["workspace_bytes"] = use_graph ? graph->workspace_bytes() : ws_bytes;
        r.details["rel_error"] = rel_json(m.rel);
        r.details["max_abs_error"] = m.max_abs;
        r.details["runs"] = m.times.size();
        r.details["median_ms"] = median;
        r.details["min_ms"] = m.times.front();
        r.details["max_ms"] = m.times.back();
        r.details["tflops"] = tflops;
        std::string other = use_graph ? std::string("; legacy API ") + algo_name(best->algo) + " " + fmt(legacy.median(), 3) + " ms"
                                      : (graph_m ? "; graph API " + graph->label() + " " + fmt(graph_m->median(), 3) + " ms"
                                                 : "");
        r.summary = std::string(req.half ? "fp16 tensor-op " : "fp32 ") + sh.str() + ": " + fmt(median, 3) + " ms, " +
                    fmt(tflops, 1) + " TFLOP/s (" + (use_graph ? "graph API " + graph->label() : algo_name(best->algo)) +
                    ", rel. error " + fmt(m.rel, 6) + (req.half ? "" : (tf32 ? ", TF32" : ", no TF32")) + other + ")";
        if (graph_problem) {
            // The legacy API works, so the pair passes; the frameworks would not.
            r.status = Status::warn;
            r.summary += "; graph API: " + graph_problem->summary;
            r.advice = graph_problem->advice;
        } else {
            r.status = Status::ok;
        }
    } catch (const Failure& f) {
        r.status = Status::fail;
        r.summary = f.summary;
        r.advice = f.advice;
        if (!f.details.is_null() && !f.details.empty()) r.details.update(f.details);
    }
    return r;
}

}  // namespace cudaenv::check
