#pragma once
// What both ways to the convolution (conv_legacy.*, conv_graph.*) share: the
// error wrappers, device memory and events released whatever happens, one
// timing function, and the CPU reference the results are checked against.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "check/probe_internal.hpp"

namespace cudaenv::check {

// A failed call or a wrong result in the convolution step, with its advice.
struct ConvFailure {
    std::string summary, advice;
    nlohmann::json details;
};

// Throw a ConvFailure for a failed call: CUDA's with cudaGetErrorString's
// text, cuDNN's named for its major (cuDNN 8 and 9 number statuses apart).
void cuda_check(const CudaFns& cuda, const char* call, int code);
void cudnn_check(const CudnnFns& cudnn, int cudnn_major, const char* call, int status);

// cudaMalloc'ed buffers, freed by the destructor.
class DeviceMemory {
public:
    explicit DeviceMemory(const CudaFns& cuda) : cuda_(cuda) {}
    DeviceMemory(const DeviceMemory&) = delete;
    DeviceMemory& operator=(const DeviceMemory&) = delete;
    ~DeviceMemory();
    void* alloc(std::size_t bytes);  // throws ConvFailure
    // nullptr when the GPU has no room (an engine's workspace: that engine is skipped).
    void* try_alloc(std::size_t bytes);

private:
    const CudaFns& cuda_;
    std::vector<void*> buffers_;
};

// A start and a stop event on the default stream.
class EventPair {
public:
    explicit EventPair(const CudaFns& cuda);  // throws ConvFailure
    EventPair(const EventPair&) = delete;
    EventPair& operator=(const EventPair&) = delete;
    ~EventPair();
    // Milliseconds between recording start, running `work`, recording stop
    // (on `stream`; the default stream when null).
    double time(const std::function<void()>& work, cuda_api::cudaStream_t stream = nullptr);
    // Milliseconds of each of `n` runs of `work` back to back, the GPU busy
    // from the first event to the last: `lead` is launched first, untimed, so
    // the first event is reached with work already queued behind it, and no
    // host gap (the time to launch the first run, with the GPU idle) counts.
    // One event closes each run and opens the next.
    std::vector<double> back_to_back(int n, const std::function<void()>& lead, const std::function<void()>& work,
                                     cuda_api::cudaStream_t stream = nullptr);

private:
    const CudaFns& cuda_;
    cuda_api::cudaEvent_t start_ = nullptr, stop_ = nullptr;
    std::vector<cuda_api::cudaEvent_t> series_;  // back_to_back's, made as needed
};

// How a convolution is timed. Per call: each run between its own two events,
// so the host's time to launch it is in the figure. Amortised: `batch` runs
// back to back between two events, no host gap, the time divided by `batch`
// (what a framework's steady state costs, and how PyTorch's own numbers are
// usually taken); `batches` such batches one after the other behind one
// untimed run (EventPair::back_to_back), the median kept.
struct TimingPlan {
    int warmup = 3;
    int per_call = 25;
    int batches = 3;
    int batch = 25;
};

struct Timing {
    std::vector<double> per_call;   // ms, sorted
    std::vector<double> amortised;  // ms per call of each batch, sorted
    std::vector<double> graphed;    // ms per call of each CUDA-graph launch, sorted (may stay empty)
    std::string graph_error;        // why there is no CUDA-graph figure
    // The host's time to launch one run in the amortised batches: near the
    // amortised figure, the host and not the GPU sets the pace.
    double host_ms_per_run = 0;
    double per_call_median() const;
    double amortised_median() const;
    double graphed_median() const;
    double headline() const;  // amortised, else per call
    nlohmann::json to_json(const TimingPlan& plan) const;
};

// Whether the way timed as `a` runs the convolution faster than `b`'s: by
// the headline (amortised, else per call); within 1 % of each other, which is
// noise, by the host's time to launch a run (host_ms_per_run), since a way the
// host barely keeps fed runs slower as soon as the host is busier. On the
// H100, cuDNN 9.14's legacy API took 0.07-0.10 ms of host time a run against
// the graph API's 0.02 for the same 0.088 ms of GPU time, and ran host-bound
// at 0.094-0.101 ms in two warm checks of eight (docs/gpu-results.md, run 16).
// A way whose host launches a run in 90 % of its amortised time or more runs
// at the host's pace, which moves more than the GPU's: against one that does
// not, it wins only by 3 % (the margin of outran_kept). On the H200, cuDNN
// 9.19's legacy API took the host as long as its fp16 runs, 0.052-0.083 ms,
// while the graph API ran at 0.053 ms on 0.017-0.022 of host time
// (docs/gpu-results.md, run 17); the legacy API, 2 % faster in the check that
// chose, had been kept.
bool faster_way(const Timing& a, const Timing& b);

// Whether the way timed as `other` takes over from a winner kept by an
// earlier check (`kept`), both timed in this check: only when it ran at least
// 3 % faster (by the headline), well beyond the 1-2 % by which one way's
// figure moves from one check to the next, so that noise never flips a kept
// choice, yet a kept way that has turned slow is not reported as the pair's
// speed. On the H200, cuDNN 9.19's legacy API, kept for fp16, ran 50 % slower
// than PyTorch in one warm check of three (docs/gpu-results.md, run 17).
bool outran_kept(const Timing& other, const Timing& kept);

// `run` launches one convolution and throws ConvFailure when it fails.
Timing time_runs(EventPair& events, const TimingPlan& plan, const std::function<void()>& run);

// The third way, as PyTorch's CUDA-graph replay: `runs` runs captured once
// into a CUDA graph on a stream of its own (`set_stream` points cuDNN's
// handle at it during the capture, then back at null), instantiated and
// launched once, untimed; time() launches it `plan.batches` times back to back
// behind one untimed launch, an event between launches: no host work per run
// at all. Captured apart from the timing so that a kept path's capture and
// instantiation can happen before the timed phase. Never throws: time() says
// why there is no graph (this runtime or library cannot).
class CapturedRuns {
public:
    CapturedRuns(const CudaFns& cuda, int runs, const std::function<int(cuda_api::cudaStream_t)>& set_stream,
                 const std::function<void()>& run);
    CapturedRuns(const CapturedRuns&) = delete;
    CapturedRuns& operator=(const CapturedRuns&) = delete;
    ~CapturedRuns();
    // Fills t.graphed (ms per run), or t.graph_error.
    void time(EventPair& events, const TimingPlan& plan, Timing& t);

private:
    const CudaFns& cuda_;
    int runs_;
    cuda_api::cudaStream_t stream_ = nullptr;
    cuda_api::cudaGraph_t graph_ = nullptr;
    cuda_api::cudaGraphExec_t exec_ = nullptr;
    std::string error_;
};

// ---- The CPU reference.
// Output element `index` (NCHW order) of y = conv(x, w) for NCHW x and KCRS w,
// stride 1, in double precision.
double conv_reference_at(const ConvShape& shape, const std::vector<float>& x, const std::vector<float>& w,
                         std::size_t index);

struct Accuracy {
    double rel = 0;        // norm-wise relative error (infinite when an output is not finite)
    double max_abs = 0;
    std::size_t samples = 0;
};
// The reference at up to `max_samples` outputs (all of them when there are
// that few, else a fixed pseudo-random sample: the whole reference would take
// the CPU seconds). Computed once, before any timing; compared after each run.
struct ReferenceSample {
    std::vector<std::size_t> index;
    std::vector<double> value;
    ReferenceSample(const ConvShape& shape, const std::vector<float>& x, const std::vector<float>& w,
                    std::size_t max_samples = 8192);
    // `y(i)`: output element i as the GPU computed it.
    template <class Get>
    Accuracy compare(Get y) const {
        std::vector<double> got(index.size());
        for (std::size_t s = 0; s < index.size(); ++s) got[s] = y(index[s]);
        return compare_values(got);
    }
    Accuracy compare_values(const std::vector<double>& got) const;
};

// ReferenceSample(...).compare(y) in one go.
Accuracy compare_with_reference(const ConvShape& shape, const std::vector<float>& x, const std::vector<float>& w,
                                const std::vector<float>& y, std::size_t max_samples = 8192);

}  // namespace cudaenv::check
