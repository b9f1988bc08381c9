#include "gpu/verdict.hpp"

#include <optional>

namespace cudaenv::gpu {

namespace {

// An unknown encoding runs nowhere this reader can tell; "a" on its own
// architecture alone; "f" (and plain SASS) on its major from its minor on.
bool sass_runs(const Arch& code, const Arch& gpu) {
    if (code.unknown) return false;
    if (code.specific) return code.sm == gpu.sm;
    return code.major() == gpu.major() && code.minor() <= gpu.minor();
}

// PTX is compiled by the driver for any later GPU, except "a" (that GPU) and "f" (its family).
bool ptx_runs(const Arch& code, const Arch& gpu) {
    if (code.unknown) return false;
    if (code.specific) return code.sm == gpu.sm;
    if (code.family) return code.major() == gpu.major() && code.minor() <= gpu.minor();
    return code.sm <= gpu.sm;
}

// The newest architecture of `archs` that `runs` accepts.
template <class Runs_>
std::optional<Arch> newest(const std::map<Arch, int>& archs, Runs_ runs) {
    std::optional<Arch> best;
    for (const auto& [a, n] : archs)
        if (runs(a)) best = a;
    return best;
}

int rank(Runs r) { return r == Runs::no ? 0 : r == Runs::jit ? 1 : 2; }

template <class Map, class Name>
std::string names(const Map& m, Name name) {
    std::string out;
    for (const auto& [a, n] : m) out += (out.empty() ? "" : " ") + name(a);
    return out;
}

}  // namespace

const char* runs_name(Runs r) {
    switch (r) {
        case Runs::native: return "native";
        case Runs::jit: return "JIT";
        case Runs::no: return "no";
        case Runs::no_code: return "-";
    }
    return "?";
}

Runs worse(Runs a, Runs b) { return rank(a) <= rank(b) ? a : b; }

std::string sass_list(const Code& c) { return names(c.sass, [](const Arch& a) { return a.sass_name(); }); }
std::string ptx_list(const Code& c) { return names(c.ptx, [](const Arch& a) { return a.ptx_name(); }); }

Verdict judge(const Code& code, const Arch& gpu) {
    Verdict v;
    v.gpu = gpu;
    if (!code.has_kernels()) {
        // A stub's entries hold no kernel, so there is nothing to load that could fail.
        v.why = code.empty() ? "no GPU code" : "no GPU code: only " + sass_list(code) + " entries without kernels";
        return v;
    }
    const auto sass = code.sass_with_kernels();
    // The newest SASS that runs (the driver picks the best match), else the newest PTX.
    if (auto a = newest(sass, [&](const Arch& x) { return sass_runs(x, gpu); })) {
        v = {Runs::native, gpu, *a, a->sass_name() + " SASS"};
        return v;
    }
    if (auto a = newest(code.ptx, [&](const Arch& x) { return ptx_runs(x, gpu); })) {
        v = {Runs::jit, gpu, *a, "only PTX " + a->ptx_name() + ", JIT-compiled at first launch"};
        return v;
    }
    v.runs = Runs::no;
    std::string has = names(sass, [](const Arch& a) { return a.sass_name(); });
    auto ptx = ptx_list(code);
    if (!ptx.empty()) has += (has.empty() ? "" : ", ") + ptx;
    v.why = "no code for " + gpu.sass_name() + " (has " + has + ")";
    return v;
}

}  // namespace cudaenv::gpu
