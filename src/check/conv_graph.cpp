// The convolution through cuDNN's backend (graph) API: tensors, a convolution
// descriptor, one forward operation, an operation graph; engine configurations
// from the heuristics; execution plans autotuned like PyTorch's
// cudnn.benchmark. Every call is resolved at run time (api.hpp).
#include "check/conv_graph.hpp"

#include <algorithm>
#include <chrono>

#include "check/names.hpp"

namespace cudaenv::check {

namespace be = cudnn_api::backend;

namespace {

const char* note_name(int n) {
    switch (n) {
        case be::NUMERICAL_NOTE_TENSOR_CORE: return "TENSOR_CORE";
        case be::NUMERICAL_NOTE_DOWN_CONVERT_INPUTS: return "DOWN_CONVERT_INPUTS";
        case be::NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION: return "REDUCED_PRECISION_REDUCTION";
        case be::NUMERICAL_NOTE_FFT: return "FFT";
        case be::NUMERICAL_NOTE_NONDETERMINISTIC: return "NONDETERMINISTIC";
        case be::NUMERICAL_NOTE_WINOGRAD: return "WINOGRAD";
        default: return "other";
    }
}

bool has(const std::vector<int>& notes, int n) { return std::find(notes.begin(), notes.end(), n) != notes.end(); }

// Unique ids of the three tensors in the graph and in the variant pack.
constexpr std::int64_t uid_x = 1, uid_w = 2, uid_y = 3;

}  // namespace

GraphConv::GraphConv(const CudaFns& cuda, const CudnnFns& cudnn, cudnn_api::cudnnHandle_t handle, int cudnn_major)
    : cuda_(cuda), cudnn_(cudnn), handle_(handle), major_(cudnn_major), memory_(cuda) {}

GraphConv::~GraphConv() {
    for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) cudnn_.backend.destroy(*it);
}

be::Descriptor GraphConv::create(int type) {
    be::Descriptor d = nullptr;
    check("cudnnBackendCreateDescriptor", cudnn_.backend.create(type, &d));
    owned_.push_back(d);
    return d;
}

void GraphConv::set(be::Descriptor d, int name, int type, std::int64_t count, const void* values) {
    check("cudnnBackendSetAttribute", cudnn_.backend.set(d, name, type, count, values));
}

be::Descriptor GraphConv::tensor(std::int64_t uid, int dtype, const std::int64_t dims[4]) {
    // NCHW, packed.
    const std::int64_t strides[4] = {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
    const std::int64_t alignment = 16;  // cudaMalloc gives 256
    auto d = create(be::TENSOR_DESCRIPTOR);
    set(d, be::ATTR_TENSOR_DATA_TYPE, be::TYPE_DATA_TYPE, 1, &dtype);
    set(d, be::ATTR_TENSOR_DIMENSIONS, be::TYPE_INT64, 4, dims);
    set(d, be::ATTR_TENSOR_STRIDES, be::TYPE_INT64, 4, strides);
    set(d, be::ATTR_TENSOR_UNIQUE_ID, be::TYPE_INT64, 1, &uid);
    set(d, be::ATTR_TENSOR_BYTE_ALIGNMENT, be::TYPE_INT64, 1, &alignment);
    check("cudnnBackendFinalize", cudnn_.backend.finalize(d));
    return d;
}

// The engine configurations one heuristics mode offers, best first; none when
// the mode is not supported for this graph.
std::vector<be::Descriptor> GraphConv::heuristics(int mode) {
    auto heur = create(be::ENGINEHEUR_DESCRIPTOR);
    set(heur, be::ATTR_ENGINEHEUR_OPERATION_GRAPH, be::TYPE_BACKEND_DESCRIPTOR, 1, &graph_);
    set(heur, be::ATTR_ENGINEHEUR_MODE, be::TYPE_HEUR_MODE, 1, &mode);
    if (cudnn_.backend.finalize(heur) != 0) return {};
    std::int64_t count = 0;
    if (cudnn_.backend.get(heur, be::ATTR_ENGINEHEUR_RESULTS, be::TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr) != 0 ||
        count <= 0)
        return {};
    std::vector<be::Descriptor> configs;
    for (std::int64_t i = 0; i < count; ++i) configs.push_back(create(be::ENGINECFG_DESCRIPTOR));
    std::int64_t got = 0;
    check("cudnnBackendGetAttribute",
          cudnn_.backend.get(heur, be::ATTR_ENGINEHEUR_RESULTS, be::TYPE_BACKEND_DESCRIPTOR, count, &got, configs.data()));
    configs.resize(static_cast<size_t>(std::clamp<std::int64_t>(got, 0, count)));
    return configs;
}

// The engine's global index and notes, for the report and the filter.
void GraphConv::describe(be::Descriptor config, Candidate& c) {
    auto engine = create(be::ENGINE_DESCRIPTOR);
    std::int64_t n = 0;
    if (cudnn_.backend.get(config, be::ATTR_ENGINECFG_ENGINE, be::TYPE_BACKEND_DESCRIPTOR, 1, &n, &engine) != 0) return;
    cudnn_.backend.get(engine, be::ATTR_ENGINE_GLOBAL_INDEX, be::TYPE_INT64, 1, &n, &c.engine);
    // The knob choices: what tells apart the configurations of one engine.
    // cuDNN writes them into descriptors made beforehand (a count-only query
    // gave none with cuDNN 9.14 and 9.19: docs/gpu-results.md, run 9), so
    // room is made for every knob type (CUDNN_KNOB_TYPE_COUNTS, 37 in cuDNN
    // 9), as cudnn_frontend does, and freed once read.
    constexpr std::int64_t room = 64;
    std::vector<be::Descriptor> choices;
    for (std::int64_t i = 0; i < room; ++i) {
        be::Descriptor k = nullptr;
        if (cudnn_.backend.create(be::KNOB_CHOICE_DESCRIPTOR, &k) != 0) break;
        choices.push_back(k);
    }
    std::int64_t got = 0;
    if (choices.size() == static_cast<std::size_t>(room) &&
        cudnn_.backend.get(config, be::ATTR_ENGINECFG_KNOB_CHOICES, be::TYPE_BACKEND_DESCRIPTOR, room, &got,
                           choices.data()) == 0)
        for (std::int64_t i = 0; i < std::clamp<std::int64_t>(got, 0, room); ++i) {
            int type = 0;
            std::int64_t value = 0;
            const auto k = choices[static_cast<std::size_t>(i)];
            if (cudnn_.backend.get(k, be::ATTR_KNOB_CHOICE_KNOB_TYPE, be::TYPE_KNOB_TYPE, 1, &n, &type) == 0 &&
                cudnn_.backend.get(k, be::ATTR_KNOB_CHOICE_KNOB_VALUE, be::TYPE_INT64, 1, &n, &value) == 0)
                c.knobs.emplace_back(type, value);
        }
    for (auto k : choices) cudnn_.backend.destroy(k);
    std::sort(c.knobs.begin(), c.knobs.end());
    c.config = std::to_string(c.engine);
    for (const auto& [type, value] : c.knobs) c.config += "," + std::to_string(type) + ":" + std::to_string(value);
    int notes[32]{};
    if (cudnn_.backend.get(engine, be::ATTR_ENGINE_NUMERICAL_NOTE, be::TYPE_NUMERICAL_NOTE, 32, &n, notes) == 0)
        c.notes.assign(notes, notes + std::clamp<std::int64_t>(n, 0, 32));
    int behavior[32]{};
    // Behaviour notes arrived in a later 8.x; an older cuDNN simply says no.
    if (cudnn_.backend.get(engine, be::ATTR_ENGINE_BEHAVIOR_NOTE, be::TYPE_BEHAVIOR_NOTE, 32, &n, behavior) == 0)
        for (std::int64_t i = 0; i < std::clamp<std::int64_t>(n, 0, 32); ++i)
            c.runtime_compiled |= behavior[i] == be::BEHAVIOR_NOTE_RUNTIME_COMPILATION;
}

// An execution plan and a variant pack for one configuration; false (with the
// reason in c.outcome) when this engine cannot run the graph here.
bool GraphConv::finalize_plan(be::Descriptor config, Candidate& c, void* x, void* w, void* y) {
    auto plan = create(be::EXECUTION_PLAN_DESCRIPTOR);
    set(plan, be::ATTR_EXECUTION_PLAN_HANDLE, be::TYPE_HANDLE, 1, &handle_);
    set(plan, be::ATTR_EXECUTION_PLAN_ENGINE_CONFIG, be::TYPE_BACKEND_DESCRIPTOR, 1, &config);
    const auto t0 = std::chrono::steady_clock::now();
    const int status = cudnn_.backend.finalize(plan);
    c.finalize_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (int s = status; s != 0) {
        c.outcome = std::string("plan not supported: ") + cudnn_status_name(major_, s);
        return false;
    }
    std::int64_t n = 0;
    check("cudnnBackendGetAttribute",
          cudnn_.backend.get(plan, be::ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, be::TYPE_INT64, 1, &n, &c.workspace));
    void* ws = nullptr;
    if (c.workspace > 0 && !(ws = memory_.try_alloc(static_cast<size_t>(c.workspace)))) {
        c.outcome = "its workspace of " + std::to_string(c.workspace) + " bytes does not fit in GPU memory";
        return false;
    }
    auto pack = create(be::VARIANT_PACK_DESCRIPTOR);
    const std::int64_t uids[3] = {uid_x, uid_w, uid_y};
    void* pointers[3] = {x, w, y};
    set(pack, be::ATTR_VARIANT_PACK_UNIQUE_IDS, be::TYPE_INT64, 3, uids);
    set(pack, be::ATTR_VARIANT_PACK_DATA_POINTERS, be::TYPE_VOID_PTR, 3, pointers);
    set(pack, be::ATTR_VARIANT_PACK_WORKSPACE, be::TYPE_VOID_PTR, 1, &ws);
    check("cudnnBackendFinalize", cudnn_.backend.finalize(pack));
    c.plan = plan;
    c.pack = pack;
    return true;
}

// The plan timed as `tune` says, its best amortised batch (cudnn_frontend's
// autotuner times each run on its own, so an engine that launches more
// kernels per run pays its launches there); negative when it fails to execute.
double GraphConv::time_plan(const Candidate& c, const TimingPlan& tune) {
    try {
        auto t = time_runs(*events_, tune, [&] { check("cudnnBackendExecute", cudnn_.backend.execute(handle_, c.plan, c.pack)); });
        if (!t.amortised.empty()) return t.amortised.front();
        return t.per_call.empty() ? -1 : t.per_call.front();
    } catch (const ConvFailure&) {
        return -1;
    }
}

void GraphConv::build(const ConvShape& sh, bool half, void* x, void* w, void* y, int max_plans, double budget_s,
                      const std::string& only) {
    const auto started = std::chrono::steady_clock::now();
    const int dtype = half ? cudnn_api::CUDNN_DATA_HALF : cudnn_api::CUDNN_DATA_FLOAT;
    const std::int64_t xd[4] = {sh.n, sh.c, sh.h, sh.w};
    const std::int64_t wd[4] = {sh.k, sh.c, sh.r, sh.s};
    const std::int64_t yd[4] = {sh.n, sh.k, sh.out_h(), sh.out_w()};
    auto tx = tensor(uid_x, dtype, xd);
    auto tw = tensor(uid_w, dtype, wd);
    auto ty = tensor(uid_y, dtype, yd);

    // fp16 data accumulates in fp32, as the frameworks do.
    const int compute = cudnn_api::CUDNN_DATA_FLOAT, conv_mode = cudnn_api::CUDNN_CROSS_CORRELATION;
    const std::int64_t dims = 2, ones[2] = {1, 1}, pads[2] = {sh.pad, sh.pad};
    auto conv = create(be::CONVOLUTION_DESCRIPTOR);
    set(conv, be::ATTR_CONVOLUTION_COMP_TYPE, be::TYPE_DATA_TYPE, 1, &compute);
    set(conv, be::ATTR_CONVOLUTION_CONV_MODE, be::TYPE_CONVOLUTION_MODE, 1, &conv_mode);
    set(conv, be::ATTR_CONVOLUTION_SPATIAL_DIMS, be::TYPE_INT64, 1, &dims);
    set(conv, be::ATTR_CONVOLUTION_DILATIONS, be::TYPE_INT64, 2, ones);
    set(conv, be::ATTR_CONVOLUTION_FILTER_STRIDES, be::TYPE_INT64, 2, ones);
    set(conv, be::ATTR_CONVOLUTION_PRE_PADDINGS, be::TYPE_INT64, 2, pads);
    set(conv, be::ATTR_CONVOLUTION_POST_PADDINGS, be::TYPE_INT64, 2, pads);
    check("cudnnBackendFinalize", cudnn_.backend.finalize(conv));

    const float alpha = 1.0f, beta = 0.0f;
    auto op = create(be::OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_X, be::TYPE_BACKEND_DESCRIPTOR, 1, &tx);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_W, be::TYPE_BACKEND_DESCRIPTOR, 1, &tw);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_Y, be::TYPE_BACKEND_DESCRIPTOR, 1, &ty);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, be::TYPE_BACKEND_DESCRIPTOR, 1, &conv);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, be::TYPE_FLOAT, 1, &alpha);
    set(op, be::ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, be::TYPE_FLOAT, 1, &beta);
    check("cudnnBackendFinalize", cudnn_.backend.finalize(op));

    graph_ = create(be::OPERATIONGRAPH_DESCRIPTOR);
    set(graph_, be::ATTR_OPERATIONGRAPH_OPS, be::TYPE_BACKEND_DESCRIPTOR, 1, &op);
    set(graph_, be::ATTR_OPERATIONGRAPH_HANDLE, be::TYPE_HANDLE, 1, &handle_);
    check("cudnnBackendFinalize", cudnn_.backend.finalize(graph_));

    events_.emplace(cuda_);

    // Heuristics mode A's list, then the fallback list's engines not yet seen.
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); };
    auto plan_all = [&](const std::string& only_config) {
        std::vector<std::int64_t> seen;
        int planned = 0;
        bool out_of_time = false;
        for (int mode : {be::HEUR_MODE_A, be::HEUR_MODE_FALLBACK}) {
            for (auto config : heuristics(mode)) {
                if (planned >= max_plans || out_of_time) break;
                Candidate c;
                c.source = mode == be::HEUR_MODE_A ? "heuristics" : "fallback";
                describe(config, c);
                if (mode == be::HEUR_MODE_FALLBACK && c.engine >= 0 &&
                    std::find(seen.begin(), seen.end(), c.engine) != seen.end())
                    continue;
                seen.push_back(c.engine);
                if (!only_config.empty() && c.config != only_config) continue;  // the kept one alone
                // As PyTorch: engines that convert the inputs down lose precision.
                if (has(c.notes, be::NUMERICAL_NOTE_DOWN_CONVERT_INPUTS)) {
                    c.outcome = "skipped: converts its inputs to a lower precision";
                } else if (finalize_plan(config, c, x, w, y)) {
                    ++planned;
                }
                tried_.push_back(std::move(c));
                out_of_time = elapsed() > budget_s;
                if (!only_config.empty()) return planned > 0;
            }
        }
        return planned > 0;
    };
    if (!only.empty() && plan_all(only)) return;
    tried_.clear();
    plan_all({});
}

void GraphConv::warm() {
    for (const auto& c : tried_)
        if (c.plan) cudnn_.backend.execute(handle_, c.plan, c.pack);  // a failure is tune()'s to report
    cuda_.device_synchronize();
}

void GraphConv::tune(const TimingPlan& tune) {
    best_ = nullptr;
    for (auto& c : tried_) {
        if (!c.plan) continue;
        c.ms = time_plan(c, tune);
        c.outcome = c.ms >= 0 ? "ok" : "failed to execute";
    }
    for (const auto& c : tried_)
        if (c.ms >= 0 && (!best_ || c.ms < best_->ms)) best_ = &c;
    if (!best_)
        throw ConvFailure{"no graph-API engine runs this convolution (" + std::to_string(tried_.size()) +
                              " configurations tried)",
                          "cuDNN's graph API, which the frameworks use, cannot run a standard convolution with this "
                          "cuDNN on this GPU: use a cuDNN release that supports this GPU.",
                          {{"graph_configs", candidates_json()}}};
}

bool GraphConv::use(const std::string& config) {
    for (auto& c : tried_)
        if (c.plan && !config.empty() && c.config == config) {
            c.outcome = "ok (kept from an earlier check)";
            best_ = &c;
            return true;
        }
    return false;
}

void GraphConv::forward() { check("cudnnBackendExecute", cudnn_.backend.execute(handle_, best_->plan, best_->pack)); }

bool GraphConv::tensor_cores() const { return best_ && has(best_->notes, be::NUMERICAL_NOTE_TENSOR_CORE); }

std::string GraphConv::label() const {
    return "engine " + std::to_string(engine()) + (tensor_cores() ? " (tensor cores)" : "");
}

nlohmann::json GraphConv::candidates_json() const {
    auto all = nlohmann::json::array();
    for (const auto& c : tried_) {
        auto notes = nlohmann::json::array();
        for (int n : c.notes) notes.push_back(note_name(n));
        nlohmann::json j = {{"engine", c.engine},        {"config", c.config},         {"source", c.source},
                            {"notes", notes},            {"runtime_compiled", c.runtime_compiled},
                            {"workspace_bytes", c.workspace}, {"outcome", c.outcome},
                            {"finalize_ms", c.finalize_ms}};
        if (c.ms >= 0) j["ms"] = c.ms;
        all.push_back(std::move(j));
    }
    return all;
}

}  // namespace cudaenv::check
