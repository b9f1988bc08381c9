// The probe `check` runs in a child process per pair (cudaenv-probe): its
// steps one after another (check/probe_*.cpp), then the convolutions, with a
// watchdog and the GPU shared between pairs checked at once.
#include "check/probe.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <optional>
#include <ostream>
#include <thread>

#include "check/probe_steps.hpp"
#include "platform/lock.hpp"
#include "platform/platform.hpp"
#include "util/fs.hpp"

namespace cudaenv::check {

namespace {

class Watchdog {
public:
    explicit Watchdog(double timeout_s) {
        if (timeout_s <= 0) return;
        deadline_us_ = now_us() + static_cast<long long>(timeout_s * 1e6);
        std::thread([this] {
            while (now_us() < deadline_us_.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
            std::_Exit(probe_timeout_status);
        }).detach();
    }
    // In microseconds, so that many short waits told one by one add up.
    void extend(double ms) { deadline_us_ += static_cast<long long>(ms * 1000); }

private:
    static long long now_us() {
        return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    std::atomic<long long> deadline_us_{0};
};

long long unix_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// The timing lock (ProbeOptions::timing_lock), held shared from the child's
// start; its destructor lets it go, then, if this child timed (times()), waits
// until it can be had exclusive: every child has timed (or ended), so this
// one's CUDA context, torn down as it ends, goes in nobody's timed phase. The
// wait is not the child's own work (the watchdog is told), and at most its
// timeout. A child that times nothing does not wait (end_untimed).
class TimingBarrier {
public:
    TimingBarrier(const ProbeOptions& opts, Watchdog& watchdog) : opts_(opts), watchdog_(watchdog) {
        if (opts.timing_lock.empty()) return;
        try {
            held_.emplace(opts.timing_lock, true, platform::FileLock::Mode::shared);
        } catch (const std::exception&) {
            // No lock file: no barrier; the parent made its folder, so this is rare.
        }
    }
    TimingBarrier(const TimingBarrier&) = delete;
    TimingBarrier& operator=(const TimingBarrier&) = delete;
    void times() { times_ = true; }
    ~TimingBarrier() {
        if (!held_) return;
        held_.reset();
        if (!times_) return;
        const auto from = std::chrono::steady_clock::now();
        const std::chrono::duration<double> limit(opts_.timeout_s > 0 ? opts_.timeout_s : 60);
        double told_ms = 0;  // the watchdog, told as the wait goes on
        try {
            for (auto now = from; now - from < limit; now = std::chrono::steady_clock::now()) {
                const double waited_ms = std::chrono::duration<double, std::milli>(now - from).count();
                watchdog_.extend(waited_ms - told_ms);
                told_ms = waited_ms;
                platform::FileLock all(opts_.timing_lock, false, platform::FileLock::Mode::exclusive);
                if (all.locked()) break;
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        } catch (const std::exception&) {
        }
    }

private:
    const ProbeOptions& opts_;
    Watchdog& watchdog_;
    std::optional<platform::FileLock> held_;
    bool times_ = false;
};

// Waits for the GPU lock (ProbeOptions::gpu_lock) in `mode` into `token`;
// the wait is not the child's own work: the watchdog is told. Milliseconds waited.
double take_gpu_lock(const ProbeOptions& opts, platform::FileLock::Mode mode, std::optional<platform::FileLock>& token,
                     Watchdog& watchdog) {
    const auto t0 = std::chrono::steady_clock::now();
    try {
        token.emplace(opts.gpu_lock, true, mode);
    } catch (const std::exception&) {
        // No lock file: go on unlocked; the parent made it, so this is rare.
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    watchdog.extend(ms);
    return ms;
}

// A child that times nothing (no cuDNN, or stopped by a failed step) ends as
// soon as it is done rather than with the others (TimingBarrier): with pairs
// checked at once, it tears its CUDA context down (cudaDeviceReset) under the
// GPU lock shared, as a warm-up holds it, so never in another pair's timed
// phase; a warm `check --all` no longer pays that teardown at its end. When,
// in unix ms (the no-cuDNN report's details), for the tests.
nlohmann::json end_untimed(Probe& p, Watchdog& watchdog) {
    if (p.opts.gpu_lock.empty() || !p.cuda_ok) return nullptr;
    if (p.context.valid()) p.context.wait();  // made as the libraries loaded, even where they then failed
    std::optional<platform::FileLock> shared;
    take_gpu_lock(p.opts, platform::FileLock::Mode::shared, shared, watchdog);
    const auto from = unix_ms();
    p.cuda.device_reset();  // an error here changes nothing: the process ends next
    return {from, unix_ms()};
}

// Of the choices kept for this pair ("<id>=<choice>;...", the id naming the
// GPU and the cuDNN version), the one for `id`.
std::string choice_for(const std::string& kept, const std::string& id) {
    size_t at = 0;
    while (at < kept.size()) {
        auto end = kept.find(';', at);
        auto item = kept.substr(at, end == std::string::npos ? std::string::npos : end - at);
        if (item.starts_with(id + "=")) return item.substr(id.size() + 1);
        if (end == std::string::npos) break;
        at = end + 1;
    }
    return {};
}

// Steps 5 and 6: the convolution in fp32, then fp16 where the GPU has tensor
// cores, verified and timed.
// `host`: the inputs of the fp32 and fp16 convolutions, made while the context was created.
void run_convolutions(Probe& p, Watchdog& watchdog, std::future<HostInputs>* host) {
    // The choice an earlier check kept for this GPU (store/conv_choice), by its
    // compute capability and multiprocessors, and by this cuDNN's version
    // (another cuDNN in the same folder chooses again).
    const std::string gpu_id = std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor) + "/" + std::to_string(p.sm_count);
    const std::string choice_id = gpu_id + "/" + p.dnn->version.str();
    ProbeOptions opts = p.opts;
    for (auto& c : opts.conv_choice) c = choice_for(c, choice_id);
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
    // Never destroyed: the child ends right after its convolutions, and the
    // driver frees a context's memory, plans and handles at once as it tears
    // the context down, where destroying them one by one (each cudaFree
    // synchronizes the whole GPU) only adds to the end of a check --all.
    auto& conv32 = *new ConvCheck(p.cuda, p.cudnn, opts, req,
                                  host[0].valid() ? std::optional(host[0].get()) : std::nullopt);
    ConvCheck* conv16 = nullptr;
    if (fp16)
        conv16 = new ConvCheck(p.cuda, p.cudnn, opts, ConvRequest{true, req.cc_major, req.cc_minor, req.cudnn_major},
                               host[1].valid() ? std::optional(host[1].get()) : std::nullopt);
    {
        std::optional<platform::FileLock> shared;
        if (!opts.gpu_lock.empty()) waited_ms += take_gpu_lock(opts, platform::FileLock::Mode::shared, shared, watchdog);
        const auto t0 = std::chrono::steady_clock::now();
        warm_from = unix_ms();
        const bool warm = !opts.gpu_lock.empty();  // alone, the timed phase's own tuning warms up
        // fp16's on a thread of its own, beside fp32's: each has its own
        // handle (cuDNN allows that), and much of a warm-up is the host's
        // (plans finalized, kernels loaded at their first launch).
        std::future<void> half;
        if (conv16) half = std::async(std::launch::async, [&] { conv16->prepare(warm); });
        conv32.prepare(warm);
        if (half.valid()) half.get();
        // Alone: another thread's work on the legacy stream would break a capture.
        conv32.capture();
        if (conv16) conv16->capture();
        warm_ms = ms_since(t0);
        warm_to = unix_ms();
    }
    std::optional<platform::FileLock> gpu_token;
    if (!opts.gpu_lock.empty()) waited_ms += take_gpu_lock(opts, platform::FileLock::Mode::exclusive, gpu_token, watchdog);
    auto timed = [&](StepResult r, long long from) {
        r.details["gpu_id"] = gpu_id;
        r.details["choice_id"] = choice_id;
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
    if (conv.status == Status::fail) return;
    if (!fp16) {
        p.emit({"conv_fp16", Status::skip,
                "compute capability " + std::to_string(p.cc_major) + "." + std::to_string(p.cc_minor) +
                    " has no tensor cores",
                "", nlohmann::json::object()});
        return;
    }
    from = unix_ms();
    p.emit(timed(conv16->measure(), from));
}

// One hardware queue per CUDA context instead of the driver's default of
// eight (CUDA_DEVICE_MAX_CONNECTIONS): the probe runs one stream at a time,
// and the driver sets up every queue as it makes the context. On the H200, a
// warm `check --all` of five pairs took 0.88-0.97 s with one queue against
// 1.40-1.45 s with eight, and 0.90-0.93 against 1.64-1.71 s on another
// machine, the convolutions as fast (docs/gpu-results.md, runs 17 and 18).
// Set before the CUDA runtime is loaded; a value the user set stays.
void one_hardware_queue() {
    if (!platform::get_env("CUDA_DEVICE_MAX_CONNECTIONS")) platform::set_env("CUDA_DEVICE_MAX_CONNECTIONS", "1");
}

}  // namespace

int run_probe(const ProbeOptions& opts, std::ostream& out) {
    one_hardware_queue();
    // Lives as long as the process: its thread may still be watching at exit.
    static Watchdog* watchdog = new Watchdog(opts.gpu_lock.empty() ? 0 : opts.timeout_s);
    // Let go last, as this returns: the child then ends (exit_process).
    TimingBarrier barrier(opts, *watchdog);
    Probe p{opts, out, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, false, false, 0, 0};
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
    // The convolutions' host inputs (CPU work: random data, the CPU reference)
    // are made on threads of their own while the CUDA context is created.
    std::future<HostInputs> host[2];
    if (load.status != Status::fail && p.cuda_ok && p.dnn)
        for (bool half : {false, true})
            host[half] = std::async(std::launch::async, [shape = opts.shape, half] { return HostInputs(shape, half); });
    p.emit(load);
    p.emit(step_origins(p));
    if (load.status == Status::fail || !p.cuda_ok) {
        end_untimed(p, *watchdog);
        return 0;
    }

    int runtime_version = 0, driver_cuda = 0;
    p.emit(step_versions(p, runtime_version, driver_cuda));
    auto gpu = step_gpu(p, runtime_version, driver_cuda);
    p.emit(gpu);
    if (gpu.status == Status::fail) {
        end_untimed(p, *watchdog);
        return 0;
    }
    if (!p.dnn) {
        auto released = end_untimed(p, *watchdog);
        nlohmann::json details = nlohmann::json::object();
        if (!released.is_null()) details["context_reset_unix_ms"] = released;
        p.emit({"conv", Status::skip, "no cuDNN in this pair: the convolution needs cuDNN", "", details});
        return 0;
    }
    barrier.times();
    run_convolutions(p, *watchdog, host);
    return 0;
}

}  // namespace cudaenv::check
