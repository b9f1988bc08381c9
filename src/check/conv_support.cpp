#include "check/conv_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

#include "check/names.hpp"

namespace cudaenv::check {

void cuda_check(const CudaFns& cuda, const char* call, int code) {
    if (code == 0) return;
    std::string text = cuda.get_error_string ? cuda.get_error_string(code) : "";
    throw ConvFailure{std::string(call) + " failed: " + cuda_error_name(code) + (text.empty() ? "" : " (" + text + ")"),
                      cuda_error_advice(code),
                      {{"call", call}, {"cuda_error", code}}};
}

void cudnn_check(const CudnnFns& cudnn, int cudnn_major, const char* call, int status) {
    if (status == 0) return;
    std::string text = cudnn.get_error_string ? cudnn.get_error_string(status) : "";
    throw ConvFailure{std::string(call) + " failed: " + cudnn_status_name(cudnn_major, status) +
                          (text.empty() ? "" : " (" + text + ")"),
                      cudnn_status_advice(cudnn_major, status),
                      {{"call", call}, {"cudnn_status", status}}};
}

DeviceMemory::~DeviceMemory() {
    for (auto* b : buffers_) cuda_.free(b);
}

void* DeviceMemory::alloc(std::size_t bytes) {
    void* p = nullptr;
    cuda_check(cuda_, "cudaMalloc", cuda_.malloc(&p, bytes));
    buffers_.push_back(p);
    return p;
}

void* DeviceMemory::try_alloc(std::size_t bytes) {
    void* p = nullptr;
    if (cuda_.malloc(&p, bytes) != 0) return nullptr;
    buffers_.push_back(p);
    return p;
}

EventPair::EventPair(const CudaFns& cuda) : cuda_(cuda) {
    cuda_check(cuda_, "cudaEventCreate", cuda_.event_create(&start_));
    cuda_check(cuda_, "cudaEventCreate", cuda_.event_create(&stop_));
}

EventPair::~EventPair() {
    if (start_) cuda_.event_destroy(start_);
    if (stop_) cuda_.event_destroy(stop_);
    for (auto* e : series_) cuda_.event_destroy(e);
}

double EventPair::time(const std::function<void()>& work, cuda_api::cudaStream_t stream) {
    cuda_check(cuda_, "cudaEventRecord", cuda_.event_record(start_, stream));
    work();
    cuda_check(cuda_, "cudaEventRecord", cuda_.event_record(stop_, stream));
    cuda_check(cuda_, "cudaEventSynchronize", cuda_.event_synchronize(stop_));
    float ms = 0;
    cuda_check(cuda_, "cudaEventElapsedTime", cuda_.event_elapsed_time(&ms, start_, stop_));
    return ms;
}

std::vector<double> EventPair::back_to_back(int n, const std::function<void()>& lead,
                                            const std::function<void()>& work, cuda_api::cudaStream_t stream) {
    n = std::max(0, n);
    while (series_.size() < static_cast<std::size_t>(n) + 1) {
        cuda_api::cudaEvent_t e = nullptr;
        cuda_check(cuda_, "cudaEventCreate", cuda_.event_create(&e));
        series_.push_back(e);
    }
    lead();
    cuda_check(cuda_, "cudaEventRecord", cuda_.event_record(series_[0], stream));
    for (int i = 0; i < n; ++i) {
        work();
        cuda_check(cuda_, "cudaEventRecord", cuda_.event_record(series_[static_cast<std::size_t>(i) + 1], stream));
    }
    cuda_check(cuda_, "cudaEventSynchronize", cuda_.event_synchronize(series_[static_cast<std::size_t>(n)]));
    std::vector<double> ms;
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        float f = 0;
        cuda_check(cuda_, "cudaEventElapsedTime", cuda_.event_elapsed_time(&f, series_[i], series_[i + 1]));
        ms.push_back(f);
    }
    return ms;
}

namespace {
double median(const std::vector<double>& sorted) {
    if (sorted.empty()) return 0;
    auto n = sorted.size();
    return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}
}  // namespace

double Timing::per_call_median() const { return median(per_call); }
double Timing::amortised_median() const { return median(amortised); }
double Timing::graphed_median() const { return median(graphed); }

double Timing::headline() const { return amortised.empty() ? per_call_median() : amortised_median(); }

namespace {
// How much faster a way must run to win against a kept winner, or as a
// host-bound way against one that is not: beyond the 1-2 % by which a way's
// figure moves from one check to the next (conv_support.hpp says where).
constexpr double clear_margin = 0.03;
}  // namespace

bool faster_way(const Timing& a, const Timing& b) {
    const double ta = a.headline(), tb = b.headline();
    if (a.host_ms_per_run <= 0 || b.host_ms_per_run <= 0) return ta < tb;
    auto host_bound = [](const Timing& t) { return t.host_ms_per_run >= 0.9 * t.headline(); };
    const Timing& fast = ta < tb ? a : b;
    const Timing& slow = ta < tb ? b : a;
    const double margin = host_bound(fast) && !host_bound(slow) ? clear_margin : 0.01;
    if (std::abs(ta - tb) <= margin * std::min(ta, tb)) return a.host_ms_per_run < b.host_ms_per_run;
    return ta < tb;
}

bool outran_kept(const Timing& other, const Timing& kept) {
    return other.headline() < (1 - clear_margin) * kept.headline();
}

nlohmann::json Timing::to_json(const TimingPlan& plan) const {
    nlohmann::json j = nlohmann::json::object();
    if (!per_call.empty())
        j["per_call"] = {{"median_ms", per_call_median()}, {"min_ms", per_call.front()}, {"max_ms", per_call.back()},
                         {"runs", per_call.size()}};
    if (!amortised.empty())
        j["amortised"] = {{"median_ms", amortised_median()}, {"min_ms", amortised.front()}, {"max_ms", amortised.back()},
                          {"batches", amortised.size()}, {"calls_per_batch", plan.batch},
                          {"host_ms_per_run", host_ms_per_run}};
    if (!graphed.empty())
        j["cuda_graph"] = {{"median_ms", graphed_median()}, {"min_ms", graphed.front()}, {"max_ms", graphed.back()},
                           {"launches", graphed.size()}, {"calls_per_graph", plan.batch}};
    else if (!graph_error.empty())
        j["cuda_graph"] = {{"error", graph_error}};
    return j;
}

Timing time_runs(EventPair& events, const TimingPlan& plan, const std::function<void()>& run) {
    Timing t;
    for (int i = 0; i < plan.warmup; ++i) run();
    for (int i = 0; i < plan.per_call; ++i) t.per_call.push_back(events.time(run));
    if (plan.batches > 0) {
        const int batch = std::max(1, plan.batch);
        double host_ms = 0;
        for (double ms : events.back_to_back(plan.batches, run, [&] {
                 const auto from = std::chrono::steady_clock::now();
                 for (int i = 0; i < batch; ++i) run();
                 host_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - from).count();
             }))
            t.amortised.push_back(ms / batch);
        t.host_ms_per_run = host_ms / (plan.batches * batch);
    }
    std::sort(t.per_call.begin(), t.per_call.end());
    std::sort(t.amortised.begin(), t.amortised.end());
    return t;
}

CapturedRuns::CapturedRuns(const CudaFns& cuda, int runs,
                           const std::function<int(cuda_api::cudaStream_t)>& set_stream,
                           const std::function<void()>& run)
    : cuda_(cuda), runs_(std::max(1, runs)) {
    const auto& g = cuda.graphs;
    if (!g.available()) {
        error_ = "this CUDA runtime has no stream capture (CUDA 11.4 or later has)";
        return;
    }
    bool capturing = false, on_stream = false;
    try {
        cuda_check(cuda, "cudaStreamCreate", g.stream_create(&stream_));
        if (int s = set_stream(stream_); s != 0)
            throw ConvFailure{"cudnnSetStream failed with status " + std::to_string(s), "", {}};
        on_stream = true;
        cuda_check(cuda, "cudaStreamBeginCapture", g.begin_capture(stream_, cuda_api::cudaStreamCaptureModeThreadLocal));
        capturing = true;
        for (int i = 0; i < runs_; ++i) run();
        capturing = false;
        cuda_check(cuda, "cudaStreamEndCapture", g.end_capture(stream_, &graph_));
        on_stream = false;
        set_stream(nullptr);
        cuda_check(cuda, "cudaGraphInstantiateWithFlags", g.instantiate(&exec_, graph_, 0));
        cuda_check(cuda, "cudaGraphLaunch", g.launch(exec_, stream_));  // warm-up
        cuda_check(cuda, "cudaStreamSynchronize", g.stream_synchronize(stream_));
    } catch (const ConvFailure& f) {
        error_ = f.summary;
    }
    if (capturing) {
        cuda_api::cudaGraph_t partial = nullptr;
        if (g.end_capture(stream_, &partial) == 0 && partial) g.graph_destroy(partial);
    }
    if (on_stream) set_stream(nullptr);
}

CapturedRuns::~CapturedRuns() {
    const auto& g = cuda_.graphs;
    if (stream_) g.stream_synchronize(stream_);
    if (exec_) g.exec_destroy(exec_);
    if (graph_) g.graph_destroy(graph_);
    if (stream_) g.stream_destroy(stream_);
}

void CapturedRuns::time(EventPair& events, const TimingPlan& plan, Timing& t) {
    t.graphed.clear();
    if (!error_.empty()) {
        t.graph_error = error_;
        return;
    }
    try {
        const auto launch = [&] { cuda_check(cuda_, "cudaGraphLaunch", cuda_.graphs.launch(exec_, stream_)); };
        for (double ms : events.back_to_back(std::max(1, plan.batches), launch, launch, stream_))
            t.graphed.push_back(ms / runs_);
        std::sort(t.graphed.begin(), t.graphed.end());
    } catch (const ConvFailure& f) {
        t.graphed.clear();
        t.graph_error = f.summary;
    }
}

double conv_reference_at(const ConvShape& sh, const std::vector<float>& x, const std::vector<float>& w,
                         std::size_t i) {
    const auto oh = static_cast<std::size_t>(sh.out_h()), ow = static_cast<std::size_t>(sh.out_w());
    const int x_ = static_cast<int>(i % ow);
    const int y_ = static_cast<int>(i / ow % oh);
    const int k_ = static_cast<int>(i / (ow * oh) % static_cast<std::size_t>(sh.k));
    const auto n_ = i / (ow * oh * static_cast<std::size_t>(sh.k));
    double acc = 0;
    for (int c = 0; c < sh.c; ++c)
        for (int rr = 0; rr < sh.r; ++rr) {
            int iy = y_ + rr - sh.pad;
            if (iy < 0 || iy >= sh.h) continue;
            for (int ss = 0; ss < sh.s; ++ss) {
                int ix = x_ + ss - sh.pad;
                if (ix < 0 || ix >= sh.w) continue;
                acc += static_cast<double>(x[((n_ * sh.c + c) * sh.h + iy) * sh.w + ix]) *
                       w[((static_cast<std::size_t>(k_) * sh.c + c) * sh.r + rr) * sh.s + ss];
            }
        }
    return acc;
}

ReferenceSample::ReferenceSample(const ConvShape& sh, const std::vector<float>& x, const std::vector<float>& w,
                                 std::size_t max_samples) {
    const std::size_t ny = static_cast<std::size_t>(sh.n) * sh.k * sh.out_h() * sh.out_w();
    const std::size_t n = std::min(ny, max_samples);
    std::mt19937 pick(777);
    std::uniform_int_distribution<std::size_t> idx(0, ny == 0 ? 0 : ny - 1);
    for (std::size_t s = 0; s < n; ++s) {
        index.push_back(n == ny ? s : idx(pick));
        value.push_back(conv_reference_at(sh, x, w, index.back()));
    }
}

Accuracy ReferenceSample::compare_values(const std::vector<double>& got) const {
    Accuracy a;
    a.samples = index.size();
    double err2 = 0, ref2 = 0;
    bool finite = true;
    for (std::size_t s = 0; s < a.samples; ++s) {
        const double ref = value[s], g = got[s];
        if (!std::isfinite(g)) finite = false;
        err2 += (g - ref) * (g - ref);
        ref2 += ref * ref;
        a.max_abs = std::max(a.max_abs, std::fabs(g - ref));
    }
    a.rel = ref2 > 0 ? std::sqrt(err2 / ref2) : std::sqrt(err2);
    if (!finite) a.rel = INFINITY;
    return a;
}

Accuracy compare_with_reference(const ConvShape& sh, const std::vector<float>& x, const std::vector<float>& w,
                                const std::vector<float>& y, std::size_t max_samples) {
    if (y.empty()) return {};
    return ReferenceSample(sh, x, w, max_samples).compare([&](std::size_t i) { return y[i]; });
}

}  // namespace cudaenv::check
