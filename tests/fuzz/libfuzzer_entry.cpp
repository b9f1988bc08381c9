// libFuzzer's entry point for one target, chosen at build time
// (CUDAENV_FUZZ_TARGET); see docs/fuzzing.md.
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const auto* target = cudaenv::fuzz::find_target(CUDAENV_FUZZ_TARGET);
    target->run(data, size);
    return 0;
}
