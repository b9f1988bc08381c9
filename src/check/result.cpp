#include "check/result.hpp"

namespace cudaenv::check {

const char* status_name(Status s) {
    switch (s) {
        case Status::ok: return "ok";
        case Status::warn: return "warn";
        case Status::fail: return "fail";
        case Status::skip: return "skip";
    }
    return "skip";
}

Status status_from_name(const std::string& s) {
    if (s == "ok") return Status::ok;
    if (s == "warn") return Status::warn;
    if (s == "fail") return Status::fail;
    return Status::skip;
}

nlohmann::json StepResult::to_json(const char* name_key) const {
    return {{name_key, step}, {"status", status_name(status)}, {"summary", summary}, {"advice", advice},
            {"details", details}};
}

StepResult StepResult::from_json(const nlohmann::json& j) {
    StepResult r;
    r.step = j.value("step", "");
    r.status = status_from_name(j.value("status", "skip"));
    r.summary = j.value("summary", "");
    r.advice = j.value("advice", "");
    if (j.contains("details") && j["details"].is_object()) r.details = j["details"];
    return r;
}

const StepResult* PairResult::step(const std::string& name) const {
    for (const auto& s : steps)
        if (s.step == name) return &s;
    return nullptr;
}

nlohmann::json PairResult::to_json() const {
    auto steps_json = nlohmann::json::array();
    for (const auto& s : steps) steps_json.push_back(s.to_json());
    return {{"spec", spec},
            {"status", pass ? "pass" : "fail"},
            {"summary", summary},
            {"advice", advice},
            {"seconds", seconds},
            {"toolkit", toolkit_path},
            {"cudnn", cudnn_path.empty() ? nlohmann::json(nullptr) : nlohmann::json(cudnn_path)},
            {"steps", steps_json}};
}

}  // namespace cudaenv::check
