#pragma once
// What `check` finds for one pair: one result per step, each with a status,
// a one-line summary, a plain sentence of advice, and details for --json.
// `doctor` reports its topics with the same type.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cudaenv::check {

// The steps, in the order they run.
inline constexpr const char* step_names[] = {"files", "load", "origins", "versions", "gpu", "conv", "conv_fp16"};

enum class Status { ok, warn, fail, skip };
const char* status_name(Status s);  // "ok", "warn", "fail", "skip"
Status status_from_name(const std::string& s);

struct StepResult {
    std::string step;
    Status status = Status::skip;
    std::string summary;
    std::string advice;
    nlohmann::json details = nlohmann::json::object();

    // `name_key` names the first field in JSON: "step" for check, "topic" for doctor.
    nlohmann::json to_json(const char* name_key = "step") const;
    static StepResult from_json(const nlohmann::json& j);
};

struct PairResult {
    std::string spec;
    std::string toolkit_path, cudnn_path;
    bool pass = false;
    std::string summary;  // one line: timings on success, the first failure otherwise
    std::string advice;
    double seconds = 0;
    std::vector<StepResult> steps;  // in step order

    const StepResult* step(const std::string& name) const;
    nlohmann::json to_json() const;
};

}  // namespace cudaenv::check
