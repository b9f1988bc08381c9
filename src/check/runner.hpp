#pragma once
// The parent side of `cudaenv check`: one child process per pair, started
// with that pair's environment and a timeout, its step results collected
// into a PairResult, and the results kept in <store>/checks.toml.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "check/probe.hpp"
#include "check/result.hpp"
#include "core/pairs.hpp"
#include "store/store.hpp"

namespace cudaenv::check {

struct RunOptions {
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};
    std::optional<ConvShape> shape;
    int runs = 25;
    // Set by check_pairs: the GPU lock the children share (empty: one child, no
    // lock), and the lock each child holds until it has timed (ProbeOptions).
    std::filesystem::path gpu_lock, timing_lock;
};

// The child's program, cudaenv-probe beside this executable (linked
// dynamically because it loads the pair's libraries; src/main_probe.cpp).
// Throws a clear error when it is missing.
std::filesystem::path probe_program();

// The specs `list` shows for `pairs`: unique among all of the store's pairs
// (two toolkits of one version differ by where they are: "13.0@pip+9.19").
std::vector<std::string> shown_specs(const std::vector<Pair>& pairs, Store& store);

// Checks pairs in children that all start at once (at most max_parallel):
// their libraries load and their contexts start side by side, while a lock
// file lets only one at a time time its convolutions, so each pair's timings
// are what it gets alone. Each convolution's chosen path is kept per pair and
// GPU (store/conv_choice) and timed again as it is by the next check. Results
// in the order of `pairs`.
std::vector<PairResult> check_pairs(const std::vector<Pair>& pairs, Store& store, const RunOptions& opts,
                                    int max_parallel = 16);

// Builds a result from what a child printed and how it ended (exposed for tests).
PairResult assemble(const std::string& spec, const std::string& child_out, const std::string& child_err,
                    const std::string& ended_how, bool has_cudnn);

// Writes each result into checks.toml (one table per pair spec), atomically.
void save_results(Store& store, const std::vector<PairResult>& results);

}  // namespace cudaenv::check
