#pragma once
// Check results per node (store/node_checks.hpp) and `cudaenv check --report
// DIR`, which merges the `check --all --json` outputs of many nodes (e.g. one
// file per task of a Slurm job array) into one node x pair table.
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "check/result.hpp"
#include "store/node_checks.hpp"

namespace cudaenv::check {

// This node's key, with the compute capability the checks saw on it.
NodeKey node_key(const std::vector<PairResult>& results);

// Keeps these results under this node's key in `store`; `checked_at` is UTC ISO 8601.
void save_node_results(Store& store, const NodeKey& key, const std::vector<PairResult>& results,
                       const std::string& checked_at);

// Now, as 2026-12-03T10:00:00Z.
std::string utc_now();

// Reads every *.json in `dir` (each the output of `cudaenv check --json`) and
// writes the node x pair table: Markdown, or JSON when `json`. Throws Error
// naming the file that is not such an output.
void write_report(const std::filesystem::path& dir, bool json, std::ostream& out);

}  // namespace cudaenv::check
