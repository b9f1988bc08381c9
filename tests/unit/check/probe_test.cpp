// Unit tests of src/check: names per cuDNN major, version decoding, the
// compatibility table, shapes, fp16 conversion, result assembly after a
// crash or hang, nvidia-smi parsing, and the child-process runner.
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

TEST_CASE("the embedded compatibility table") {
    REQUIRE(embedded::find("compat.toml"));
    const auto& c = Compat::get();
    REQUIRE(c.cuda_family(12));
    CHECK(c.cuda_family(12)->cc_min == *Version::parse("5.0"));
    // The drivers (drivers.toml): floors by major and OS, each release's own minimum.
    const auto& d = Drivers::get();
    REQUIRE(d.floor(12));
    CHECK(d.floor(12)->on(false) == "525.60.13");
    CHECK(d.floor(12)->on(true) == "527.41");
    CHECK(d.floor(13)->on(true).empty());  // not confirmed: left out
    REQUIRE(d.release(*Version::parse("11.8.89")));
    CHECK(d.release(*Version::parse("11.8.89"))->on(false) == "520.61.05");
    CHECK(d.release(*Version::parse("11.8.89"))->on(true) == "520.06");
    CHECK(d.release(*Version::parse("12.6"))->on(false) == "560.28.03");    // a major.minor is its GA
    CHECK(d.release(*Version::parse("12.6.3"))->on(false) == "560.35.05");
    CHECK(d.release(*Version::parse("13.2")) == nullptr);                    // no row: its major's floor decides
    auto s = c.cudnn(*Version::parse("8.9.7"));
    REQUIRE(s.row);
    CHECK(s.exact);
    CHECK(s.row->cc->contains(*Version::parse("9.0")));
    CHECK_FALSE(s.row->cc->contains(*Version::parse("10.0")));
    auto s14 = c.cudnn(*Version::parse("9.14.0"));
    REQUIRE(s14.row);
    CHECK_FALSE(s14.exact);
    CHECK(s14.row->versions.str() == "9.13");

    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("8.9.7")).empty());
    CHECK(c.pair_conflict(*Version::parse("12.2"), *Version::parse("8.9.7")).empty());
    CHECK(c.pair_conflict(*Version::parse("12.4"), *Version::parse("8.9.7")).find("not CUDA 12.4") != std::string::npos);
    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("9.17.0")).find("not CUDA 11.8") != std::string::npos);
    bool unconfirmed = false;
    // 9.14 is judged by 9.13's row: CUDA 13.0 fits, 11.8 does not.
    CHECK(c.pair_conflict(*Version::parse("13.0"), *Version::parse("9.14.0"), &unconfirmed).empty());
    CHECK(c.pair_conflict(*Version::parse("11.8"), *Version::parse("9.14.0"), &unconfirmed).find("unconfirmed") !=
          std::string::npos);
    CHECK(unconfirmed);
    // A neighbouring row never rules out a minor version of a listed major.
    CHECK(c.pair_conflict(*Version::parse("13.2"), *Version::parse("9.19.0")).empty());

    bool tf = false;
    for (const auto& f : c.frameworks())
        tf = tf || (f.name == "tensorflow" && f.version == "2.10" && f.cuda == *Version::parse("11.2"));
    CHECK(tf);
    CHECK(compare_driver("580.159.04", "580.65.06") > 0);
    CHECK(compare_driver("525.60.13", "525.60.13") == 0);
    CHECK(compare_driver("470.1", "525") < 0);
}

TEST_CASE("Compat::parse rejects malformed data") {
    CHECK_THROWS(Compat::parse("[[cudnn]]\nversions = \"x.y\"\n"));
    CHECK_THROWS(Compat::parse("not toml ["));
}

TEST_CASE("ConvShape") {
    ConvShape d;
    CHECK(d.flops() == doctest::Approx(2.0 * 32 * 64 * 56 * 56 * 64 * 9));
    auto s = ConvShape::parse("2x8x10x12x4");
    REQUIRE(s);
    CHECK((s->n == 2 && s->c == 8 && s->h == 10 && s->w == 12 && s->k == 4));
    CHECK(s->out_h() == 10);
    CHECK_FALSE(ConvShape::parse("2x8x10x12"));
    CHECK_FALSE(ConvShape::parse("2x8x10x12x0"));
    CHECK_FALSE(ConvShape::parse("2x8x10x12xa"));
}

TEST_CASE("float_to_half round trip") {
    for (float f : {0.0f, 1.0f, -2.5f, 0.1f, 65504.0f, 6.1e-5f, -0.333f}) {
        float back = half_to_float(float_to_half(f));
        CHECK(back == doctest::Approx(f).epsilon(1e-3));
    }
    CHECK(float_to_half(1.0f) == 0x3C00);
    CHECK(float_to_half(-2.0f) == 0xC000);
    CHECK(half_to_float(0x7C00) > 1e30f);
}

TEST_CASE("assemble blames the step a crashed child was in") {
    std::string out = std::string(probe_marker) + R"({"step":"files","status":"ok","summary":"9 of 9"})" + "\n" +
                      "noise printed by a library\n" + probe_marker +
                      R"({"step":"load","status":"ok","summary":"loaded"})" + "\n" + probe_marker +
                      R"({"step":"origins","status":"ok","summary":"fine"})" + "\n";
    auto r = assemble("12.6+9.8", out, "Segmentation fault\n", "crashed (SIGSEGV)", true);
    CHECK_FALSE(r.pass);
    REQUIRE(r.step("versions"));
    CHECK(r.step("versions")->status == Status::fail);
    CHECK(r.step("versions")->summary.find("crashed (SIGSEGV)") != std::string::npos);
    CHECK(r.summary.starts_with("versions:"));
    CHECK_FALSE(r.step("gpu"));

    auto t = assemble("x", out, "", "timed out after 3.00 s", true);
    CHECK(t.step("versions")->advice.find("hung") != std::string::npos);

    std::string good = out + probe_marker + R"({"step":"versions","status":"ok","summary":"v"})" + "\n" + probe_marker +
                       R"({"step":"gpu","status":"ok","summary":"g"})" + "\n" + probe_marker +
                       R"({"step":"conv","status":"ok","summary":"fp32 1 ms","details":{"median_ms":1.0}})" + "\n";
    auto p = assemble("x", good, "", "", true);
    CHECK(p.pass);
    CHECK(p.summary == "fp32 1 ms");
    auto nocudnn = assemble("x", out + probe_marker + R"({"step":"versions","status":"ok"})" + "\n" + probe_marker +
                                     R"({"step":"gpu","status":"ok"})" + "\n" + probe_marker +
                                     R"({"step":"conv","status":"skip"})" + "\n",
                            "", "", false);
    CHECK(nocudnn.pass);
}

TEST_CASE("library names per OS and major") {
    using namespace cudaenv::cudalibs;
    CHECK(cudart_name(11, false) == "libcudart.so.11.0");
    CHECK(cudart_name(12, false) == "libcudart.so.12");
    CHECK(cudart_name(11, true) == "cudart64_110.dll");
    CHECK(cudart_name(13, true) == "cudart64_13.dll");
    CHECK(cudnn_names(8, false).size() == 7);
    CHECK(cudnn_names(9, false).size() == 8);
    CHECK(cudnn_names(9, false).front() == "libcudnn.so.9");
    CHECK(cudnn_names(9, true)[1] == "cudnn_graph64_9.dll");
    CHECK(is_linux_lib("libcudnn.so.9.14.0", linux_cudnn));
    CHECK(is_linux_lib("libcudnn.so", linux_cudnn));
    CHECK_FALSE(is_linux_lib("libcudnn_ops.so.9", linux_cudnn));
    CHECK(linux_lib_full_version("libcudart.so.12.6.77", linux_cudart)->str() == "12.6.77");
    CHECK_FALSE(linux_lib_full_version("libcudart.so.12", linux_cudart).has_value());
    CHECK(windows_dll_digits("CUDART64_110.DLL", windows_cudart) == "110");
    CHECK_FALSE(windows_dll_digits("cudart64_12.dll.bak", windows_cudart).has_value());
    CHECK(cuda_major_of_cudart_digits("110") == 11);
    CHECK(cuda_major_of_cudart_digits("12") == 12);
    CHECK(is_toolkit_library("libcufft.so.11", "cufft", false));
    CHECK_FALSE(is_toolkit_library("libcufftw.so.11", "cufft", false));
    CHECK(is_toolkit_library("cublasLt64_12.dll", "cublasLt", true));
    CHECK(cudnn_major_of("libcudnn.so.8.9.7", false) == 8);
    CHECK(cudnn_major_of("cudnn64_9.dll", true) == 9);
    CHECK_FALSE(cudnn_major_of("libcudnn.so", false).has_value());
    CHECK_FALSE(cudnn_major_of("libcudnn_ops.so.9", false).has_value());
}

TEST_CASE("the kernel module's driver version") {
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Oct 2 2025\n") ==
          "580.159.04");
    // The open kernel module names its architecture first.
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.95.05  Release Build\n") ==
          "580.95.05");
    CHECK(platform::parse_proc_driver_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54 Release") == "550.54");
    CHECK_FALSE(platform::parse_proc_driver_version("nothing here").has_value());
}

TEST_CASE("the CPU reference convolution") {
    // 1x1x3x3 input, one 3x3 filter of ones, padding 1: each output is the sum of its neighbourhood.
    ConvShape sh;
    sh.n = 1, sh.c = 1, sh.h = 3, sh.w = 3, sh.k = 1;
    std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w(9, 1.0f);
    CHECK(conv_reference_at(sh, x, w, 4) == 45.0);       // the centre sees all nine
    CHECK(conv_reference_at(sh, x, w, 0) == 1 + 2 + 4 + 5);
    CHECK(conv_reference_at(sh, x, w, 8) == 5 + 6 + 8 + 9);
    std::vector<float> y(9);
    for (size_t i = 0; i < 9; ++i) y[i] = static_cast<float>(conv_reference_at(sh, x, w, i));
    auto a = compare_with_reference(sh, x, w, y);
    CHECK(a.samples == 9);
    CHECK(a.rel == 0.0);
    y[4] = 46;
    a = compare_with_reference(sh, x, w, y);
    CHECK(a.max_abs == 1.0);
    CHECK(a.rel > 0.0);
    y[4] = NAN;
    CHECK(std::isinf(compare_with_reference(sh, x, w, y).rel));
    // Two filters, two channels: channel sums are kept apart per filter.
    sh.c = 2, sh.k = 2;
    std::vector<float> x2(18, 1.0f), w2(36, 0.0f);
    w2[4] = 1;       // filter 0, channel 0, centre
    w2[18 + 9 + 4] = 3;  // filter 1, channel 1, centre
    CHECK(conv_reference_at(sh, x2, w2, 4) == 1.0);
    CHECK(conv_reference_at(sh, x2, w2, 9 + 4) == 3.0);
}

TEST_CASE("parse_nvidia_smi") {
    auto [drv, cuda] = parse_nvidia_smi(
        "| NVIDIA-SMI 580.159.04             Driver Version: 580.159.04     CUDA Version: 13.0     |\n");
    CHECK(drv == "580.159.04");
    CHECK(cuda == "13.0");
    auto [d2, c2] = parse_nvidia_smi("garbage");
    CHECK(d2.empty());
    CHECK(c2.empty());
}

#ifndef _WIN32  // POSIX sh and signals
TEST_CASE("run_process") {
    auto env = platform::environment();
    SUBCASE("output and exit code") {
        auto r = platform::run_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, env, std::chrono::seconds(10));
        CHECK(r.started);
        CHECK(r.exit_code == 3);
        CHECK(r.out == "out\n");
        CHECK(r.err == "err\n");
    }
    SUBCASE("a crash is reported by signal") {
        auto r = platform::run_process({"sh", "-c", "kill -SEGV $$"}, env, std::chrono::seconds(10));
        CHECK(r.signal_name == "SIGSEGV");
    }
    SUBCASE("a hang is killed at the timeout, children too") {
        auto r = platform::run_process({"sh", "-c", "sleep 30 & sleep 30"}, env, std::chrono::milliseconds(300));
        CHECK(r.timed_out);
        CHECK(r.seconds < 5);
    }
    SUBCASE("the environment is exactly the one given") {
        std::vector<std::pair<std::string, std::string>> e = {{"PATH", "/usr/bin:/bin"}, {"ONLY", "this"}};
        auto r = platform::run_process({"sh", "-c", "echo $ONLY; echo ${HOME:-unset}"}, e, std::chrono::seconds(10));
        CHECK(r.out == "this\nunset\n");
    }
    SUBCASE("a missing program") {
        auto r = platform::run_process({"no-such-program-cudaenv"}, env, std::chrono::seconds(10));
        CHECK_FALSE(r.started);
        CHECK(r.error.find("not found") != std::string::npos);
    }
}
#endif
