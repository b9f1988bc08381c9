// Unit tests of the table's architecture ranges (gpu/table).
#include <doctest/doctest.h>

#include "gpu/table.hpp"

#include "gpu_support.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::sm;

TEST_CASE("table: architecture ranges of CUDA and cuDNN releases") {
    CHECK(table_cuda(*Version::parse("13.0"), sm(61)).runs == Runs::no);
    CHECK(table_cuda(*Version::parse("13.0"), sm(75)).runs == Runs::native);
    CHECK(table_cuda(*Version::parse("12.6"), sm(61)).runs == Runs::native);
    CHECK(table_cuda(*Version::parse("11.8"), sm(120)).runs == Runs::jit);  // PTX compute_90
    CHECK(table_cuda(*Version::parse("11.8"), sm(30)).runs == Runs::no);
    CHECK(table_cudnn(*Version::parse("9.11.0"), sm(61)).runs == Runs::no);
    CHECK(table_cudnn(*Version::parse("9.10.2"), sm(61)).runs == Runs::native);
    CHECK(table_cudnn(*Version::parse("9.14.0"), sm(61)).runs == Runs::no);  // judged from the 9.13 row
    CHECK(table_cudnn(*Version::parse("9.14.0"), sm(75)).runs == Runs::native);
    CHECK(table_cudnn(*Version::parse("8.9.7"), sm(120)).runs == Runs::no);
    auto needs = pair_needs(*Version::parse("12.6"), Version::parse("9.11.0"));
    CHECK(needs.cc_lo.str() == "7.5");
    CHECK(needs.min_driver_linux == "525.60.13");
}
