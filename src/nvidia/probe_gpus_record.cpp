// The records cudaenv-probe __gpus prints and cudaenv reads back: apart from
// probe_gpus.cpp, so that the static cudaenv links no library-loading code.
#include <stdexcept>

#include "nvidia/probe_gpus.hpp"
#include "util/records.hpp"

namespace cudaenv::nvidia {

std::string encode(const ProbedMachine& m) {
    std::string out;
    records::put_record(out, {"driver", m.driver, std::to_string(m.driver_cuda), m.gpu_error});
    for (const auto& g : m.gpus)
        records::put_record(out, {"gpu", std::to_string(g.index), std::to_string(g.major), std::to_string(g.minor), g.name});
    return out;
}

ProbedMachine decode_probed(const std::string& text) {
    ProbedMachine m;
    records::Reader r(text);
    std::vector<std::string_view> fields;
    while (r.next(fields)) {
        if (!r.intact()) continue;  // a damaged line: skipped
        try {
            records::Fields f(fields);
            auto kind = f.next();
            if (kind == "driver") {
                m.driver = f.str();
                m.driver_cuda = static_cast<int>(f.number());
                m.gpu_error = f.str();
            } else if (kind == "gpu") {
                ProbedGpu g;
                g.index = static_cast<int>(f.number());
                g.major = static_cast<int>(f.number());
                g.minor = static_cast<int>(f.number());
                g.name = f.str();
                if (g.major > 0 && g.major < 100 && g.minor >= 0 && g.minor < 10) m.gpus.push_back(g);
            }
        } catch (const std::out_of_range&) {
            // a damaged line: skipped
        }
    }
    return m;
}

}  // namespace cudaenv::nvidia
