// Unit tests of the loading rules (gpu/verdict).
#include <doctest/doctest.h>

#include "gpu/verdict.hpp"

#include "gpu_support.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::sm;

TEST_CASE("judge: NVIDIA's loading rules") {
    Code c;
    c.sass = {{sm(80), 1}, {sm(90, true), 1}};
    c.ptx = {{sm(90), 1}};
    CHECK(judge(c, sm(86)).runs == Runs::native);   // sm_80 SASS runs on 8.6
    CHECK(judge(c, sm(86)).by == sm(80));
    CHECK(judge(c, sm(90)).runs == Runs::native);   // sm_90a on exactly 9.0
    CHECK(judge(c, sm(120)).runs == Runs::jit);     // compute_90 JIT-compiled
    CHECK(judge(c, sm(75)).runs == Runs::no);       // nothing at or below 7.5
    CHECK(judge(c, sm(75)).why == "no code for sm_75 (has sm_80 sm_90a, compute_90)");
    Code specific;
    specific.sass = {{sm(90, true), 1}};
    specific.ptx = {{sm(90, true), 1}};
    CHECK(judge(specific, sm(100)).runs == Runs::no);  // neither sm_90a nor compute_90a moves forward
    CHECK(judge(Code{}, sm(90)).runs == Runs::no_code);
}
