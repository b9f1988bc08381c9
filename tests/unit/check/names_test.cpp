// Unit tests of names per cuDNN major, advice, version decoding (check/names).
#include <doctest/doctest.h>

#include <cmath>

#include "nvidia/compat.hpp"
#include "check/conv_support.hpp"
#include "nvidia/driver.hpp"
#include "check/doctor.hpp"
#include "check/names.hpp"
#include "check/probe.hpp"
#include "check/probe_internal.hpp"
#include "check/runner.hpp"
#include "platform/nvidia_driver.hpp"
#include "core/cudalibs.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/embedded.hpp"

using namespace cudaenv;
using namespace cudaenv::check;
using namespace cudaenv::nvidia;

TEST_CASE("cudnn_status_name maps cuDNN 8 and 9 numbering") {
    CHECK(cudnn_status_name(8, 0) == "CUDNN_STATUS_SUCCESS");
    CHECK(cudnn_status_name(8, 1) == "CUDNN_STATUS_NOT_INITIALIZED");
    CHECK(cudnn_status_name(8, 6) == "CUDNN_STATUS_ARCH_MISMATCH");
    CHECK(cudnn_status_name(8, 14) == "CUDNN_STATUS_VERSION_MISMATCH");
    CHECK(cudnn_status_name(9, 1001) == "CUDNN_STATUS_NOT_INITIALIZED");
    CHECK(cudnn_status_name(9, 1008) == "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED");
    CHECK(cudnn_status_name(9, 3007) == "CUDNN_STATUS_NOT_SUPPORTED_ARCH_MISMATCH");
    CHECK(cudnn_status_name(9, 4004) == "CUDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED");
    // A detail code this table does not know is named by its category.
    CHECK(cudnn_status_name(9, 3014) == "CUDNN_STATUS_NOT_SUPPORTED (3014)");
    CHECK(cudnn_status_name(8, 6) != cudnn_status_name(9, 6));
    CHECK(cudnn_status_name(8, 99) == "cudnnStatus 99");
}

TEST_CASE("advice is given for the classic failures") {
    CHECK(cudnn_status_advice(8, 6).find("architecture") != std::string::npos);
    CHECK(cudnn_status_advice(9, 3007).find("architecture") != std::string::npos);
    CHECK(cudnn_status_advice(9, 1008).find("sub-libraries") != std::string::npos);
    CHECK(cudnn_status_advice(8, 1).find("initialise") != std::string::npos);
    CHECK(cuda_error_advice(35).find("driver") != std::string::npos);
    CHECK(cuda_error_name(35) == "cudaErrorInsufficientDriver");
    CHECK(cuda_error_name(100) == "cudaErrorNoDevice");
    CHECK(cuda_error_name(12345) == "cudaError 12345");
}

TEST_CASE("decode_cudnn uses the formula of the major version") {
    auto d8 = decode_cudnn(8907);
    CHECK((d8.major == 8 && d8.minor == 9 && d8.patch == 7));
    auto d9 = decode_cudnn(90600);
    CHECK((d9.major == 9 && d9.minor == 6 && d9.patch == 0));
    auto d919 = decode_cudnn(91900);
    CHECK((d919.major == 9 && d919.minor == 19));
    // The wrong formula gives nonsense, which is why both are reported.
    CHECK(decode_cudnn_v8(90600).major == 90);
    CHECK(cuda_int_version(12060) == "12.6");
    CHECK(cuda_int_version(11080) == "11.8");
}
