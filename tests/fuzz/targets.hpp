#pragma once
// The fuzz targets: one function per parser of text that comes from disk or
// the command line. Each returns normally for any input, valid or not; a
// crash, an assertion, a sanitizer report or an exception other than
// cudaenv::Error is a finding. Run by driver.cpp (in-tree, CTest) or by
// libFuzzer (libfuzzer_entry.cpp); see docs/fuzzing.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cudaenv::fuzz {

struct Target {
    const char* name;
    void (*run)(const uint8_t* data, size_t size);
};

// Every target, ending with {nullptr, nullptr}.
extern const Target kTargets[];

const Target* find_target(std::string_view name);

}  // namespace cudaenv::fuzz
