#pragma once
// checks.toml in the store: the last `cudaenv check` result per pair, written
// by check and read by list/current. One [[pair]] per pair, told apart by its
// folders (two toolkits of one version share a spec):
//   [[pair]]
//   spec = "12.6.3+9.8.0"   toolkit = "/opt/cuda-12.6"   cudnn = "/opt/cudnn"  (absent: no cuDNN)
//   status = "pass" | "fail"   summary = "..."   checked_at = "2026-01-31T12:00:00Z"
//   seconds = 1.25   advice = "..." (absent when none)
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudaenv {

struct CheckRecord {
    std::string spec;
    std::string toolkit;  // UTF-8 folder
    std::string cudnn;    // empty: a pair without cuDNN
    bool pass = false;
    std::string summary;
    std::string checked_at;  // UTC, ISO 8601
    double seconds = 0;
    std::string advice;

    // "pass" / "fail", and ": <summary>" when there is one.
    std::string status_line() const;
};

struct Checks {
    std::vector<CheckRecord> pairs;

    // A missing file is empty. The file only caches results, so entries
    // without the fields a result needs are skipped; a file toml++ cannot
    // parse throws Error (file:line:col), as do the odd states of
    // read_store_file.
    static Checks load(const std::filesystem::path& file);
    // The text of a checks.toml; `file` is only named in errors.
    static Checks parse(const std::string& text, const std::filesystem::path& file);
    std::string to_toml() const;
    void save(const std::filesystem::path& file) const;

    // Replaces the result of the same folders, else appends.
    void record(CheckRecord r);
    // The result of this pair's folders, if any.
    const CheckRecord* find(const std::string& spec, const std::string& toolkit, const std::string& cudnn) const;
};

}  // namespace cudaenv
