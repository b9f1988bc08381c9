// Unit tests of convolution shapes and the CPU reference convolution (check/conv_support).
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

namespace {
// Three amortised batches at `amortised` ms, the host taking `host` ms a run.
Timing batches_at(double amortised, double host = 0) {
    Timing t;
    t.amortised = {amortised, amortised, amortised};
    t.host_ms_per_run = host;
    return t;
}
}  // namespace

TEST_CASE("faster_way: by amortised time; within 1 %, by the host's launch cost") {
    // Clearly faster wins, whatever its host cost.
    CHECK(faster_way(batches_at(0.0540, 0.030), batches_at(0.1080, 0.020)));
    CHECK_FALSE(faster_way(batches_at(0.1080, 0.020), batches_at(0.0540, 0.030)));
    // A tie within noise (0.0881 against 0.0883 ms, the H100's fp32 legacy and
    // graph ways): the one the host launches in 0.02 ms, not 0.07.
    CHECK(faster_way(batches_at(0.0883, 0.020), batches_at(0.0881, 0.069)));
    CHECK_FALSE(faster_way(batches_at(0.0881, 0.069), batches_at(0.0883, 0.020)));
    // 1.5 % apart is not noise.
    CHECK(faster_way(batches_at(0.0880, 0.069), batches_at(0.0894, 0.020)));
    // No host figure (per-call timing only): the time alone.
    Timing a, b;
    a.per_call = {0.10};
    b.per_call = {0.0995};
    CHECK(faster_way(b, a));
    CHECK_FALSE(faster_way(a, b));
}

TEST_CASE("outran_kept: a kept winner gives way only to a way 3 % faster") {
    // The 1-2 % one way's figure moves between checks keeps the kept way.
    CHECK_FALSE(outran_kept(batches_at(0.0879), batches_at(0.0894)));
    CHECK_FALSE(outran_kept(batches_at(0.0534), batches_at(0.0550)));
    // A kept way turned host-bound (+50 %) gives way; one equally fast stays.
    CHECK(outran_kept(batches_at(0.0525), batches_at(0.0820)));
    CHECK(outran_kept(batches_at(0.0900), batches_at(0.0930)));
    CHECK_FALSE(outran_kept(batches_at(0.0930), batches_at(0.0930)));
    CHECK_FALSE(outran_kept(batches_at(0.0930), batches_at(0.0900)));
}

TEST_CASE("faster_way: a host-bound way wins only by 3 %") {
    // The H200's fp16 on cuDNN 9.19 (run 17): the legacy API 2 % faster, its
    // host as slow as its runs; the graph API with host time to spare.
    const Timing legacy = batches_at(0.0528, 0.0527), graph = batches_at(0.0539, 0.0171);
    CHECK(faster_way(graph, legacy));
    CHECK_FALSE(faster_way(legacy, graph));
    // 4 % faster wins all the same.
    CHECK(faster_way(batches_at(0.0517, 0.0520), graph));
    // Both host-bound: the usual 1 %.
    CHECK(faster_way(batches_at(0.0528, 0.0527), batches_at(0.0539, 0.0530)));
}
