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

namespace cudaenv::check {

struct RunOptions {
    std::chrono::milliseconds timeout{std::chrono::seconds(120)};
    std::optional<ConvShape> shape;
    int runs = 25;
};

// Checks one pair in a child process; never throws for what the child does.
PairResult check_pair(const Pair& pair, Store& store, const RunOptions& opts);

// Builds a result from what a child printed and how it ended (exposed for tests).
PairResult assemble(const std::string& spec, const std::string& child_out, const std::string& child_err,
                    const std::string& ended_how, bool has_cudnn);

// Writes each result into checks.toml (one table per pair spec), atomically.
void save_results(Store& store, const std::vector<PairResult>& results);

}  // namespace cudaenv::check
