#pragma once
// Check results per node. A store shared between nodes (the system store, or
// a home folder on a network filesystem) sees nodes with different GPUs and
// drivers, so a check result only says something about the node it ran on.
// Results are kept per node key in <store>/checks/<host>-<id>.json:
//   {"node": {"host", "gpu", "compute_capability", "driver"},
//    "pairs": [{"spec", "toolkit", "cudnn", "status", "summary", "advice", "checked_at", "seconds"}]}
// One file per node: nodes never write the same file, and jobs on one node
// take that file's lock (store/excl_lock.hpp) around read-modify-write.
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace cudaenv {

struct NodeKey {
    std::string host;
    std::string gpu;     // GPU models, "A + B" when a node has two kinds; "none" without a driver
    std::string driver;  // NVIDIA driver version, "none" without one
    std::string compute_capability;  // "9.0", from the check itself; "" when no GPU answered

    // What tells nodes apart: host, GPU models and driver (the compute
    // capability follows from the GPU model), as a short hex id.
    std::string id() const;
    nlohmann::json to_json() const;
    static NodeKey from_json(const nlohmann::json& j);
};

// This node as the OS shows it, without loading any CUDA library (Linux:
// /proc/driver/nvidia/version and /proc/driver/nvidia/gpus/*/information).
NodeKey this_node();

struct NodeCheck {
    std::string spec, toolkit, cudnn, status, summary, advice, checked_at;
    double seconds = 0;
    nlohmann::json to_json() const;
    static NodeCheck from_json(const nlohmann::json& j);
};

std::filesystem::path node_checks_file(const Store& store, const NodeKey& key);

// Records these results for `key` in `store` (replacing older results of the
// same folders), atomically and under the file's lock.
void save_node_checks(Store& store, const NodeKey& key, const std::vector<NodeCheck>& results);

// The last result on this node of every pair, as "pass: <summary>" by
// (toolkit path, cuDNN path or ""): from the user's store, else from the
// shared store beneath it. Each file is read once, however many pairs `list` shows.
std::map<std::pair<std::string, std::string>, std::string> node_last_checks(Store& store);

}  // namespace cudaenv
