// ConvShape (check/probe.hpp) on its own: the parent `check` parses --shape
// too, and it must not link the probe, which loads libraries with dlopen and
// so lives only in the dynamically linked cudaenv-probe (src/main_probe.cpp).
#include <string>

#include "check/probe_options.hpp"
#include "util/strings.hpp"

namespace cudaenv::check {

std::optional<ConvShape> ConvShape::parse(const std::string& text) {
    auto parts = str::split(text, 'x');
    if (parts.size() != 5) return std::nullopt;
    int v[5];
    for (size_t i = 0; i < 5; ++i)
        if (!str::parse_int(parts[i], v[i]) || v[i] < 1 || v[i] > 4096) return std::nullopt;
    ConvShape s;
    s.n = v[0], s.c = v[1], s.h = v[2], s.w = v[3], s.k = v[4];
    return s;
}

std::string ConvShape::str() const {
    return "N" + std::to_string(n) + " C" + std::to_string(c) + " " + std::to_string(h) + "x" + std::to_string(w) +
           " K" + std::to_string(k) + " " + std::to_string(r) + "x" + std::to_string(s);
}

double ConvShape::flops() const { return 2.0 * n * k * out_h() * out_w() * c * r * s; }

}  // namespace cudaenv::check
