#pragma once
// Step 4's second way to the convolution: cuDNN's backend (graph) API, the
// one PyTorch and TensorFlow use through cudnn_frontend. Its engines include
// kernels the legacy API's eight algorithms do not reach, so timing only the
// legacy API would make a healthy pair look slow.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "check/conv_support.hpp"

namespace cudaenv::check {

// The convolution y = conv(x, w) as an operation graph, autotuned the way
// PyTorch's cudnn.benchmark does: the engine configurations of heuristics mode
// A and then the fallback list, at most `max_plans` that finalize (PyTorch's
// benchmark_limit, 10), each timed (`tune`: amortised, so that the host's
// launch cost of an engine does not decide), the fastest kept. Every
// descriptor and workspace is released by the destructor.
class GraphConv {
public:
    GraphConv(const CudaFns& cuda, const CudnnFns& cudnn, cudnn_api::cudnnHandle_t handle, int cudnn_major);
    GraphConv(const GraphConv&) = delete;
    GraphConv& operator=(const GraphConv&) = delete;
    ~GraphConv();

    // The operation graph and an execution plan for each of up to `max_plans`
    // engine configurations; stops early once `budget_s` seconds are spent
    // (engines that compile their kernels at run time take a while to
    // finalize). Throws ConvFailure when the graph cannot be built.
    // `only`: build the plan of that configuration alone (config() of the
    // choice an earlier check kept), or all as above when the heuristics no
    // longer offer it.
    void build(const ConvShape& shape, bool half, void* x, void* w, void* y, int max_plans, double budget_s,
               const std::string& only = {});
    // Runs each plan once, untimed: its kernels load at their first launch.
    void warm();
    // Times each plan as `tune` says and keeps the fastest; throws
    // ConvFailure when no engine runs the graph.
    void tune(const TimingPlan& tune);
    // Takes configuration `config` without timing the others (the choice an
    // earlier check kept); false when no plan of it was built here.
    bool use(const std::string& config);

    // cudnnBackendExecute with the fastest plan; throws ConvFailure.
    void forward();

    std::int64_t engine() const { return best_ ? best_->engine : -1; }
    // The chosen configuration: its engine and knob choices, "62,3:1,16:0".
    // Heuristics offer one engine with many knob settings (on an H100, eight
    // of engine 62 for fp16, 0.055-0.060 ms), so the engine alone does not
    // name what won.
    std::string config() const { return best_ ? best_->config : std::string(); }
    bool tensor_cores() const;  // the chosen engine uses tensor cores (TF32 for float32 data)
    std::size_t workspace_bytes() const { return best_ ? static_cast<std::size_t>(best_->workspace) : 0; }
    std::string label() const;                // "engine 12 (tensor cores)"
    nlohmann::json candidates_json() const;   // every configuration tried, with its outcome

private:
    struct Candidate {
        std::int64_t engine = -1;
        std::vector<std::pair<int, std::int64_t>> knobs;  // (knob type, value), by type
        std::string config;                              // engine and knobs, as config() says
        std::vector<int> notes;
        bool runtime_compiled = false;
        std::string source;  // "heuristics" or "fallback"
        cudnn_api::backend::Descriptor plan = nullptr, pack = nullptr;
        std::int64_t workspace = 0;
        std::string outcome;  // "ok", or why it was skipped
        double ms = -1;
        double finalize_ms = 0;  // building the plan (engines compiled at run time take longest)
    };

    cudnn_api::backend::Descriptor create(int type);
    void check(const char* call, int status) { cudnn_check(cudnn_, major_, call, status); }
    void set(cudnn_api::backend::Descriptor d, int name, int type, std::int64_t count, const void* values);
    cudnn_api::backend::Descriptor tensor(std::int64_t uid, int dtype, const std::int64_t dims[4]);
    std::vector<cudnn_api::backend::Descriptor> heuristics(int mode);
    void describe(cudnn_api::backend::Descriptor config, Candidate& c);
    bool finalize_plan(cudnn_api::backend::Descriptor config, Candidate& c, void* x, void* w, void* y);
    double time_plan(const Candidate& c, const TimingPlan& tune);

    const CudaFns& cuda_;
    const CudnnFns& cudnn_;
    cudnn_api::cudnnHandle_t handle_;
    int major_;
    cudnn_api::backend::Descriptor graph_ = nullptr;
    std::vector<cudnn_api::backend::Descriptor> owned_;  // destroyed in reverse order
    DeviceMemory memory_;
    std::vector<Candidate> tried_;
    const Candidate* best_ = nullptr;
    std::optional<EventPair> events_;
};

}  // namespace cudaenv::check
