#pragma once
// What the probe (check/probe.hpp) is asked to do, and how it answers: the
// values its steps (check/probe_steps.hpp) and convolutions share.
#include <filesystem>
#include <optional>
#include <string>

namespace cudaenv::check {

// A convolution shape: NCHW input, K filters of R x S, padding, stride 1.
struct ConvShape {
    int n = 32, c = 64, h = 56, w = 56, k = 64, r = 3, s = 3, pad = 1;
    // "32x64x56x56x64" (N x C x H x W x K; 3x3 filters, padding 1); nullopt if malformed.
    static std::optional<ConvShape> parse(const std::string& text);
    std::string str() const;
    int out_h() const { return h + 2 * pad - r + 1; }
    int out_w() const { return w + 2 * pad - s + 1; }
    // Multiply-adds counted as two operations.
    double flops() const;
};

struct ProbeOptions {
    std::filesystem::path toolkit;
    std::filesystem::path cudnn;        // empty: the pair has no cuDNN
    std::string cudnn_variant;
    ConvShape shape;
    int runs = 25;                      // timed runs (median taken); at least 20 by default
    // When several pairs are checked at once: a lock file each child holds
    // while it times its convolutions, so only one pair times at a time
    // while the others load their libraries and create their contexts.
    std::filesystem::path gpu_lock;
    // With gpu_lock: a lock every child holds shared from its start until it
    // has timed; then it waits until it can take it exclusive (every child
    // has timed) before it ends (which tears its CUDA context down), so that
    // no child's cleanup falls into another's timed phase. A child that times
    // nothing lets it go without waiting (check/probe.cpp, end_untimed).
    std::filesystem::path timing_lock;
    // With gpu_lock: the child ends itself (exit status probe_timeout_status)
    // once its own work, not counting the wait for the lock, passes this.
    double timeout_s = 0;
    // The convolution path an earlier check chose for this pair and GPU, per
    // data type (0 fp32, 1 fp16): "graph:62", "legacy:1", "" none. Timed
    // again as it is (no autotuning), unless it no longer runs.
    std::string conv_choice[2];
};

// The exit status of a child that ran out of its own time (see timeout_s).
inline constexpr int probe_timeout_status = 124;

// Every line the probe prints for the parent starts with this.
inline constexpr const char* probe_marker = "@@cudaenv-probe ";

}  // namespace cudaenv::check
