// Unit tests of the machine record (gpu/machine).
#include <doctest/doctest.h>

#include "gpu/machine.hpp"

#include "gpu_support.hpp"

using namespace cudaenv;
using namespace cudaenv::gpu;
using testsupport::planned;
using testsupport::sm;

TEST_CASE("machine record: kept per boot") {
    Machine m;
    m.gpus.push_back({0, "NVIDIA H200", sm(90)});
    m.driver = "580.159.04";
    m.driver_source = "NVML";
    m.driver_cuda = "13.0";
    auto text = encode_machine(m, "boot-1");
    Machine back;
    REQUIRE(decode_machine(text, "boot-1", back));
    CHECK(back.gpus.size() == 1);
    CHECK(back.gpus[0].arch == sm(90));
    CHECK(back.gpus[0].name == "NVIDIA H200");
    CHECK(back.driver == "580.159.04");
    CHECK_FALSE(decode_machine(text, "boot-2", back));          // rebooted: ask again
    CHECK_FALSE(decode_machine(text.substr(0, text.size() - 3), "boot-1", back));  // torn
    CHECK(planned({61}).override_note() == "planning for GPU sm_61 from --gpu, not this machine");
}
