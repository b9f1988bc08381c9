#pragma once
// The convolution path `check` chose for a pair on a GPU (cache/conv_choice.txt),
// kept as cudnn.benchmark keeps its choice for a process: the next check
// times that path again instead of choosing anew, so noise cannot flip the
// result from one run to the next, and the timed phase is shorter. One record
// per pair, GPU, data type and shape (check/runner builds the key); a file
// that is missing or damaged only means choosing again.
#include <filesystem>
#include <map>
#include <string>

namespace cudaenv {

class ConvChoices {
public:
    // Loads the file (missing, foreign or damaged: empty).
    explicit ConvChoices(const std::filesystem::path& file);
    // "graph:62", "legacy:1"; "" when nothing is kept for `key`.
    std::string get(const std::string& key) const;
    void set(const std::string& key, const std::string& choice);
    // Writes the file when something changed (a cache: best effort).
    void save() const;

private:
    std::filesystem::path file_;
    std::map<std::string, std::string> choices_;
    bool dirty_ = false;
};

}  // namespace cudaenv
