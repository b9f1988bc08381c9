// Step 4: a convolution through cuDNN's legacy API (conv_legacy.cpp) and
// through its graph API (conv_graph.cpp), each verified against the CPU
// reference and timed per call and amortised (conv_support.hpp); the faster
// way, by amortised time, is the pair's result.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "check/conv_graph.hpp"
#include "check/conv_legacy.hpp"
#include "check/conv_support.hpp"
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

std::string fmt(double v, int prec) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(prec);
    s << v;
    return s.str();
}

nlohmann::json rel_json(double rel) { return std::isfinite(rel) ? nlohmann::json(rel) : nlohmann::json("inf"); }

// What one way of running the convolution measured.
struct Measured {
    Accuracy accuracy;
    Timing timing;
    double headline() const { return timing.headline(); }
};

}  // namespace

// What a convolution needs on the host, made before the GPU is ready (while
// the CUDA context is created): random inputs in [-1, 1) from a fast
// generator, in half precision when asked (the reference uses exactly the
// values the GPU sees), the CPU reference at the sampled outputs, the NaN fill.
HostInputs::HostInputs(const ConvShape& of, bool in_half) : shape(of), half(in_half) {
    const size_t nx = static_cast<size_t>(shape.n) * shape.c * shape.h * shape.w;
    const size_t nw = static_cast<size_t>(shape.k) * shape.c * shape.r * shape.s;
    const size_t ny = static_cast<size_t>(shape.n) * shape.k * shape.out_h() * shape.out_w();
    uint64_t state = 12345;  // splitmix64: a few nanoseconds a value, where mt19937 took a tenth of a second
    auto next = [&state] {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return static_cast<float>((z ^ (z >> 31)) >> 40) * (2.0f / 16777216.0f) - 1.0f;
    };
    x.resize(nx);
    w.resize(nw);
    for (auto& v : x) v = next();
    for (auto& v : w) v = next();
    if (half) {
        x16.resize(nx);
        w16.resize(nw);
        for (size_t i = 0; i < nx; ++i) x[i] = half_to_float(x16[i] = float_to_half(x[i]));
        for (size_t i = 0; i < nw; ++i) w[i] = half_to_float(w16[i] = float_to_half(w[i]));
    }
    reference = std::make_shared<const ReferenceSample>(shape, x, w);
    nan.assign(ny * (half ? 2 : 4), 0xFF);  // all-ones bits: NaN in float and in half
}

// The device side of one convolution: the host inputs on the GPU (x, w, y),
// and the way to verify and time a run of either API. Outside the anonymous
// namespace, since ConvCheck::State (conv.hpp) holds one.
class ConvBench {
public:
    ConvBench(const CudaFns& cuda, HostInputs host) : cuda_(cuda), half_(host.half), memory_(cuda), events_(cuda) {
        const size_t elem = half_ ? 2 : 4;
        hx_ = std::move(host.x);
        hw_ = std::move(host.w);
        nx_ = hx_.size();
        nw_ = hw_.size();
        ny_ = host.nan.size() / elem;
        x = memory_.alloc(nx_ * elem);
        w = memory_.alloc(nw_ * elem);
        y = memory_.alloc(ny_ * elem);
        upload(x, half_ ? static_cast<const void*>(host.x16.data()) : hx_.data(), nx_ * elem);
        upload(w, half_ ? static_cast<const void*>(host.w16.data()) : hw_.data(), nw_ * elem);
        reference_ = std::move(host.reference);
        nan_ = std::move(host.nan);
        hy_.resize(ny_ * elem);
    }

    // Verified now, or already (`verified`: what verify() found in the
    // warm-up), then timed only when right (`tol`).
    Measured measure(const std::function<void()>& run, double tol, const TimingPlan& plan,
                     const std::optional<Accuracy>& verified = std::nullopt) {
        Measured m;
        m.accuracy = verified ? *verified : verify(run);
        if (m.accuracy.rel < tol) m.timing = time_runs(events_, plan, run);
        return m;
    }

    // One run on an output filled with NaN (so an engine that writes nothing
    // cannot pass on an earlier result), compared with the CPU reference.
    Accuracy verify(const std::function<void()>& run) {
        upload(y, nan_.data(), nan_.size());
        run();
        cuda_check(cuda_, "cudaDeviceSynchronize", cuda_.device_synchronize());
        download(hy_.data(), y, hy_.size());
        return reference_->compare([&](size_t i) -> double {
            if (half_) {
                unsigned short h;
                std::memcpy(&h, hy_.data() + 2 * i, 2);
                return half_to_float(h);
            }
            float f;
            std::memcpy(&f, hy_.data() + 4 * i, 4);
            return f;
        });
    }

    EventPair& events() { return events_; }

    void *x = nullptr, *w = nullptr, *y = nullptr;

private:
    void upload(void* dst, const void* src, size_t bytes) {
        cuda_check(cuda_, "cudaMemcpy", cuda_.memcpy(dst, src, bytes, cuda_api::cudaMemcpyHostToDevice));
    }
    void download(void* dst, const void* src, size_t bytes) {
        cuda_check(cuda_, "cudaMemcpy", cuda_.memcpy(dst, src, bytes, cuda_api::cudaMemcpyDeviceToHost));
    }

    const CudaFns& cuda_;
    bool half_;
    DeviceMemory memory_;
    EventPair events_;
    size_t nx_ = 0, nw_ = 0, ny_ = 0;
    std::vector<float> hx_, hw_;
    std::shared_ptr<const ReferenceSample> reference_;
    std::vector<unsigned char> nan_, hy_;  // y's bytes: NaN to upload, the result downloaded
};

namespace {

// The path an earlier check chose for this pair and GPU (store/conv_choice),
// as "<winner>|legacy=<algo>:<math>|graph=<config>": the winner ("graph" or
// "legacy") and what each API ran, the graph API's configuration as
// GraphConv::config() names it (engine and knobs). Unknown parts are left out;
// a choice kept before the knobs were named ("graph=62") names no
// configuration that has knobs, so the next check chooses again.
struct KeptChoice {
    std::string winner;
    int algo = -1, math = 0;
    std::string config;
};

KeptChoice parse_choice(const std::string& text) {
    KeptChoice k;
    size_t at = 0;
    for (int part = 0; at <= text.size() && part < 3; ++part) {
        auto bar = text.find('|', at);
        auto item = text.substr(at, bar == std::string::npos ? std::string::npos : bar - at);
        at = bar == std::string::npos ? text.size() + 1 : bar + 1;
        if (part == 0 && (item == "graph" || item == "legacy")) k.winner = item;
        int a = -1, mt = 0;
        if (item.starts_with("legacy=") && std::sscanf(item.c_str() + 7, "%d:%d", &a, &mt) == 2) k.algo = a, k.math = mt;
        if (item.starts_with("graph=")) k.config = item.substr(6);
    }
    return k;
}

std::string choice_text(bool graph_won, const LegacyConv& legacy, const std::optional<GraphConv>& graph, bool graph_ran) {
    std::string out = graph_won ? "graph" : "legacy";
    out += "|legacy=" + std::to_string(legacy.algo()) + ":" + std::to_string(legacy.math_type());
    if (graph && graph_ran && !graph->config().empty()) out += "|graph=" + graph->config();
    return out;
}

}  // namespace

// The winner's runs captured as a CUDA graph (CapturedRuns), and which API's.
// Outside the anonymous namespace, since ConvCheck::State holds one.
struct CapturedWinner {
    std::optional<CapturedRuns> runs;
    bool graph_api = false;

    // Captures `runs_per_graph` runs of the graph API's path, or the legacy
    // one's, unless they are captured already.
    void capture(const CudaFns& cuda, const CudnnFns& cudnn, LegacyConv& legacy, std::optional<GraphConv>& graph,
                 int runs_per_graph, bool use_graph) {
        if (runs && graph_api == use_graph) return;
        graph_api = use_graph;
        runs.emplace(
            cuda, runs_per_graph, [&](cuda_api::cudaStream_t st) { return cudnn.set_stream(legacy.handle(), st); },
            [&] { use_graph ? graph->forward() : legacy.forward(); });
    }
};

struct ConvCheck::State {
    State(const CudaFns& c, const CudnnFns& d, const ProbeOptions& o, const ConvRequest& r)
        : cuda(c), cudnn(d), opts(o), req(r) {}
    const CudaFns& cuda;
    const CudnnFns& cudnn;
    const ProbeOptions& opts;
    ConvRequest req;
    // Destroyed in reverse: the graph's plans before the legacy path's handle
    // they use, both before the memory they point at.
    std::optional<ConvBench> bench;
    std::optional<LegacyConv> legacy;
    std::optional<GraphConv> graph;
    std::optional<ConvFailure> failed;         // preparing failed: measure() reports it
    std::optional<ConvFailure> graph_problem;  // the graph API failed where the legacy one may not
    // With a kept choice, what the warm-up already did for the timed phase:
    // each API's kept path run once and checked, the kept winner's runs
    // captured as a CUDA graph.
    std::optional<Accuracy> legacy_verified, graph_verified;
    CapturedWinner captured;
    nlohmann::json prepare_ms = nlohmann::json::object();  // where prepare()'s time went
    std::optional<HostInputs> host;                          // made earlier, if given
};

ConvCheck::ConvCheck(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req,
                     std::optional<HostInputs> host)
    : s_(std::make_unique<State>(cuda, cudnn, opts, req)) {
    s_->host = std::move(host);
}

ConvCheck::~ConvCheck() = default;

void ConvCheck::prepare(bool warm) {
    auto& s = *s_;
    auto from = std::chrono::steady_clock::now();
    auto lap = [&](const char* name) {
        const auto now = std::chrono::steady_clock::now();
        s.prepare_ms[name] = std::chrono::duration<double, std::milli>(now - from).count();
        from = now;
    };
    try {
        // The host inputs made while the context was created (probe.cpp), else now.
        s.bench.emplace(s.cuda, s.host ? std::move(*s.host) : HostInputs(s.opts.shape, s.req.half));
        lap("inputs");
        // ---- The legacy API, as older frameworks use it.
        s.legacy.emplace(s.cuda, s.cudnn, s.req.cudnn_major);
        lap("handle");
        s.legacy->build(s.opts.shape, s.req.half, s.bench->x, s.bench->w, s.bench->y);
        // With a path kept by an earlier check, its first run (which loads its
        // kernels) is the one that checks its result, and the timed phase only
        // times it. Else, to warm up, cudnnFind runs every algorithm and every
        // plan runs once; the timed phase chooses, then checks.
        const auto kept = parse_choice(s.opts.conv_choice[s.req.half ? 1 : 0]);
        if (kept.algo >= 0 && s.legacy->use(kept.algo, kept.math)) {
            s.legacy_verified = s.bench->verify([&] { s.legacy->forward(); });
        } else if (warm) {
            s.legacy->tune();
            s.legacy->forward();
        }
        lap("legacy");
        // ---- The graph API, the way the frameworks reach cuDNN's engines.
        if (s.cudnn.backend.available()) {
            s.graph.emplace(s.cuda, s.cudnn, s.legacy->handle(), s.req.cudnn_major);
            try {
                s.graph->build(s.opts.shape, s.req.half, s.bench->x, s.bench->w, s.bench->y, 10, 1.5, kept.config);
                lap("graph_plans");
                if (!kept.config.empty() && s.graph->use(kept.config))
                    s.graph_verified = s.bench->verify([&] { s.graph->forward(); });
                else if (warm)
                    s.graph->warm();
            } catch (const ConvFailure& f) {
                s.graph_problem = f;
            }
        }
        if (warm) cuda_check(s.cuda, "cudaDeviceSynchronize", s.cuda.device_synchronize());
        lap("graph_warm");
    } catch (const ConvFailure& f) {
        s.failed = f;
    }
}

// The kept winner's runs captured and instantiated as a CUDA graph before the
// timed phase; report_winner captures them there otherwise.
void ConvCheck::capture() {
    auto& s = *s_;
    if (s.failed || !s.cudnn.set_stream || !s.legacy) return;
    const auto from = std::chrono::steady_clock::now();
    const auto kept = parse_choice(s.opts.conv_choice[s.req.half ? 1 : 0]);
    const bool graph_won = kept.winner == "graph" && s.graph_verified && !s.graph_problem;
    if (!graph_won && !(kept.winner == "legacy" && s.legacy_verified)) return;
    s.captured.capture(s.cuda, s.cudnn, *s.legacy, s.graph, std::max(1, s.opts.runs), graph_won);
    s.prepare_ms["cuda_graph_capture"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
}

StepResult run_conv(const CudaFns& cuda, const CudnnFns& cudnn, const ProbeOptions& opts, const ConvRequest& req) {
    ConvCheck c(cuda, cudnn, opts, req);
    c.prepare(false);
    return c.measure();
}

namespace {

// One measure() call: the step's result as it fills, the tolerance and the
// timing plan, and where the timed phase's time goes (details.phases_ms).
struct Measuring {
    const ConvRequest& req;
    const ConvShape& shape;
    KeptChoice kept;
    StepResult r;
    double tol;
    TimingPlan timing;
    nlohmann::json phases = nlohmann::json::object();
    std::chrono::steady_clock::time_point lap_from = std::chrono::steady_clock::now();

    void lap(const char* name) {
        const auto now = std::chrono::steady_clock::now();
        phases[name] = std::chrono::duration<double, std::milli>(now - lap_from).count();
        lap_from = now;
    }
    ConvFailure wrong(const std::string& how, double rel) const {
        return ConvFailure{"wrong results from the " + how + ": relative error " +
                               (std::isfinite(rel) ? fmt(rel, 6) : "inf") + " against the CPU reference (limit " +
                               fmt(tol, 4) + ")",
                           "cuDNN computed a wrong convolution: the library or the driver is broken or mismatched; "
                           "reinstall this cuDNN and update the driver.",
                           r.details};
    }
};

// The legacy API, as older frameworks use it: chosen, verified and timed.
Measured measure_legacy(Measuring& m, ConvBench& bench, LegacyConv& legacy, const std::optional<Accuracy>& verified) {
    // The algorithm an earlier check chose, as it is (already in use and
    // checked when the warm-up ran it: `verified`); else cudnnFind chooses.
    if (!verified && !(m.kept.algo >= 0 && legacy.use(m.kept.algo, m.kept.math))) legacy.tune();
    m.lap("legacy_choose");
    Measured lm = bench.measure([&] { legacy.forward(); }, m.tol, m.timing, verified);
    m.lap("legacy_verify_and_time");
    nlohmann::json legacy_json = {{"algo", legacy.label()},
                                  {"math", legacy.math()},
                                  {"workspace_bytes", legacy.workspace_bytes()},
                                  {"rel_error", rel_json(lm.accuracy.rel)},
                                  {"max_abs_error", lm.accuracy.max_abs},
                                  {"algorithms", legacy.candidates_json()}};
    m.r.details = {{"shape", m.shape.str()},
                   {"dtype", m.req.half ? "float16" : "float32"},
                   {"layout", "NCHW"},
                   {"tolerance", m.tol},
                   {"samples", lm.accuracy.samples},
                   {"legacy", legacy_json}};
    if (!(lm.accuracy.rel < m.tol)) throw m.wrong("legacy API (" + legacy.label() + ")", lm.accuracy.rel);
    legacy_json["median_ms"] = lm.headline();
    legacy_json["timing"] = lm.timing.to_json(m.timing);
    m.r.details["legacy"] = legacy_json;
    return lm;
}

// The graph API, the way the frameworks reach cuDNN's engines: autotuned,
// verified and timed; nothing when it is missing or failed (`problem` says why).
std::optional<Measured> measure_graph(Measuring& m, ConvBench& bench, std::optional<GraphConv>& graph,
                                      std::optional<ConvFailure>& problem, const std::optional<Accuracy>& verified) {
    if (!graph) {
        m.r.details["graph"] = {{"error", "this cuDNN has no graph (backend) API"}};
        return std::nullopt;
    }
    std::optional<Measured> gm;
    try {
        // The configuration an earlier check chose, as it is (no autotuning, so noise
        // cannot flip the choice); else each candidate is timed: two warm-ups,
        // then five batches of 10 runs, the best batch counting.
        if (!problem && !(!m.kept.config.empty() && graph->use(m.kept.config))) graph->tune(TimingPlan{2, 0, 5, 10});
        m.lap("graph_autotune");
        if (!problem) gm = bench.measure([&] { graph->forward(); }, m.tol, m.timing, verified);
        m.lap("graph_verify_and_time");
    } catch (const ConvFailure& f) {
        problem = f;
    }
    nlohmann::json gj = {{"configs", graph->candidates_json()}};
    if (gm) {
        gj["engine"] = graph->engine();
        gj["config"] = graph->config();
        gj["tensor_cores"] = graph->tensor_cores();
        gj["workspace_bytes"] = graph->workspace_bytes();
        gj["rel_error"] = rel_json(gm->accuracy.rel);
        gj["max_abs_error"] = gm->accuracy.max_abs;
        if (!gm->timing.per_call.empty() || !gm->timing.amortised.empty()) {
            gj["median_ms"] = gm->headline();
            gj["timing"] = gm->timing.to_json(m.timing);
        }
    } else if (problem) {
        gj["error"] = problem->summary;
        if (problem->details.contains("call")) gj["call"] = problem->details["call"];
        if (problem->details.contains("cudnn_status")) gj["cudnn_status"] = problem->details["cudnn_status"];
    }
    m.r.details["graph"] = gj;
    if (gm && !(gm->accuracy.rel < m.tol)) throw m.wrong("graph API (" + graph->label() + ")", gm->accuracy.rel);
    return gm;
}

// What this pair delivers: the faster of the two ways (faster_way), also timed
// as a CUDA graph (as PyTorch's graph replay runs it), into the result.
void report_winner(Measuring& m, const CudaFns& cuda, const CudnnFns& cudnn, ConvBench& bench, LegacyConv& legacy,
                   std::optional<GraphConv>& graph, Measured& lm, std::optional<Measured>& gm,
                   CapturedWinner& captured) {
    // A winner kept from an earlier check stays while it runs and the other
    // way has not clearly outrun it (outran_kept); else the faster.
    const bool use_graph = gm && (m.kept.winner == "graph"    ? !outran_kept(lm.timing, gm->timing)
                                  : m.kept.winner == "legacy" ? outran_kept(gm->timing, lm.timing)
                                                              : faster_way(gm->timing, lm.timing));
    const bool replaced = gm && !m.kept.winner.empty() && (m.kept.winner == "graph") != use_graph;
    Measured& w = use_graph ? *gm : lm;
    if (cudnn.set_stream) {
        // Captured in the warm-up when the winner was kept; else now.
        captured.capture(cuda, cudnn, legacy, graph, m.timing.batch, use_graph);
        captured.runs->time(bench.events(), m.timing, w.timing);
    } else
        w.timing.graph_error = "this cuDNN has no cudnnSetStream";
    m.lap("cuda_graph");
    auto& d = m.r.details;
    d["phases_ms"] = m.phases;
    const double ms = w.headline();
    const double per_call = w.timing.per_call_median();
    const double tflops = ms > 0 ? m.shape.flops() / (ms * 1e-3) / 1e12 : 0;
    const bool tf32 = !m.req.half && m.req.cc_major >= 8 &&
                      (use_graph ? graph->tensor_cores() : legacy.math_type() != cudnn_api::CUDNN_FMA_MATH);
    d["api"] = use_graph ? "graph" : "legacy";
    d["choice"] = choice_text(use_graph, legacy, graph, gm.has_value());
    d["choice_kept"] = !m.kept.winner.empty() && !replaced;
    if (replaced) d["choice_replaced"] = m.kept.winner;  // the kept winner, outrun this time
    d["algo"] = use_graph ? graph->label() : legacy.label();
    d["math"] = use_graph ? (graph->tensor_cores() ? "tensor cores" : "no tensor cores") : legacy.math();
    d["tf32_possible"] = tf32;
    d["workspace_bytes"] = use_graph ? graph->workspace_bytes() : legacy.workspace_bytes();
    d["rel_error"] = rel_json(w.accuracy.rel);
    d["max_abs_error"] = w.accuracy.max_abs;
    // The headline is the amortised time; the per-call figures include the
    // host's launch of each run.
    d["timing"] = w.timing.to_json(m.timing);
    d["median_ms"] = ms;
    d["amortised_ms"] = ms;
    d["per_call_ms"] = per_call;
    if (!w.timing.graphed.empty()) d["cuda_graph_ms"] = w.timing.graphed_median();
    d["runs"] = w.timing.per_call.size();
    d["min_ms"] = w.timing.per_call.empty() ? ms : w.timing.per_call.front();
    d["max_ms"] = w.timing.per_call.empty() ? ms : w.timing.per_call.back();
    d["tflops"] = tflops;
    std::string other = use_graph ? "; legacy API " + legacy.label() + " " + fmt(lm.headline(), 3) + " ms"
                                  : (gm ? "; graph API " + graph->label() + " " + fmt(gm->headline(), 3) + " ms" : "");
    m.r.summary = std::string(m.req.half ? "fp16 tensor-op " : "fp32 ") + m.shape.str() + ": " + fmt(ms, 3) +
                  " ms, " + fmt(tflops, 1) + " TFLOP/s (" +
                  (use_graph ? "graph API " + graph->label() : legacy.label()) + ", " + fmt(per_call, 3) +
                  " ms per call, rel. error " + fmt(w.accuracy.rel, 6) +
                  (m.req.half ? "" : (tf32 ? ", TF32" : ", no TF32")) + other + ")";
}

}  // namespace

StepResult ConvCheck::measure() {
    auto& st = *s_;
    const int runs = std::max(1, st.opts.runs);
    // fp32 (TF32 at worst) must be within 1e-3; fp16 outputs are rounded to
    // 11 bits, so they get 5e-3.
    Measuring m{st.req, st.opts.shape, parse_choice(st.opts.conv_choice[st.req.half ? 1 : 0]), {},
                st.req.half ? 5e-3 : 1e-3, TimingPlan{3, runs, 3, runs}};
    m.r.step = st.req.half ? "conv_fp16" : "conv";
    try {
        if (st.failed) throw *st.failed;
        Measured lm = measure_legacy(m, *st.bench, *st.legacy, st.legacy_verified);
        auto gm = measure_graph(m, *st.bench, st.graph, st.graph_problem, st.graph_verified);
        report_winner(m, st.cuda, st.cudnn, *st.bench, *st.legacy, st.graph, lm, gm, st.captured);
        m.r.details["prepare_ms"] = st.prepare_ms;
        if (st.graph_problem) {
            // The legacy API works, so the pair passes; the frameworks would not.
            m.r.status = Status::warn;
            m.r.summary += "; graph API: " + st.graph_problem->summary;
            m.r.advice = st.graph_problem->advice;
        } else {
            m.r.status = Status::ok;
        }
    } catch (const ConvFailure& f) {
        m.r.status = Status::fail;
        m.r.summary = f.summary;
        m.r.advice = f.advice;
        if (!f.details.is_null() && !f.details.empty()) m.r.details.update(f.details);
    }
    return m.r;
}

}  // namespace cudaenv::check
