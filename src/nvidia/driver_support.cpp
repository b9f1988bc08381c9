#include "nvidia/driver_support.hpp"

#include "nvidia/compat.hpp"

namespace cudaenv::nvidia {

namespace {

constexpr std::string_view or_newer = " or newer";

bool is_version(const std::string& s) { return Version::parse(s).has_value(); }

}  // namespace

const char* fit_name(DriverFit f) {
    switch (f) {
        case DriverFit::runs: return "runs";
        case DriverFit::minor_compat: return "minor-version compatibility";
        case DriverFit::too_old: return "too old";
        case DriverFit::unknown: return "unknown";
    }
    return "unknown";
}

std::string newest_cuda_for(const std::string& driver, bool windows) {
    if (!is_version(driver)) return {};
    Version best;
    bool meets_every_row = true;
    for (const auto& r : Drivers::get().releases()) {
        const auto& min = r.on(windows);
        if (min.empty()) continue;
        if (compare_driver(driver, min) >= 0) {
            if (best < r.cuda.prefix(2)) best = r.cuda.prefix(2);
        } else {
            meets_every_row = false;
        }
    }
    if (best.empty()) return {};
    // Newer than the newest row: its branch may run releases the table does not know yet.
    return best.str() + (meets_every_row ? std::string(or_newer) : "");
}

DriverJudgement judge_driver(const std::string& driver, const Version& cuda, bool windows,
                             const std::string& driver_cuda) {
    DriverJudgement j;
    j.driver = driver;
    const auto& table = Drivers::get();
    const auto* floor = table.floor(cuda.major());
    const auto* rel = table.release(cuda);
    if (floor) j.floor = floor->on(windows);
    if (rel) j.needs = rel->on(windows);
    j.source = rel ? rel->source : floor ? floor->source : "";
    const auto label = cuda.prefix(2).str();
    const std::string who = driver.empty() ? std::string("the driver") : "driver " + driver;

    if (driver.empty() && driver_cuda.empty()) {
        j.why = "no NVIDIA driver known";
        return j;
    }
    // The driver's own word (cuDriverGetVersion, nvidia-smi) wins over the table.
    if (auto max = Version::parse(driver_cuda)) {
        j.runs_up_to = max->prefix(2).str();
        const auto says = who + " runs CUDA up to " + j.runs_up_to;
        if (cuda.prefix(2) <= max->prefix(2) || cuda.major() < max->major()) {
            j.fit = DriverFit::runs;
            j.why = says;
        } else if (cuda.major() == max->major()) {
            j.fit = DriverFit::minor_compat;
            j.why = says + "; " + label + " runs through minor-version compatibility, without JIT of PTX newer than " +
                    j.runs_up_to + (j.needs.empty() ? "" : " (" + label + " needs >= " + j.needs + " for all of it)");
        } else {
            j.fit = DriverFit::too_old;
            j.why = says + "; " + label + " needs " + (j.floor.empty() ? "a newer driver" : ">= " + j.floor);
        }
        return j;
    }
    if (!is_version(driver)) {
        j.why = who + " is not a driver version";
        return j;
    }
    j.runs_up_to = newest_cuda_for(driver, windows);
    const std::string says =
        j.runs_up_to.empty() ? who + " is older than every CUDA release in the table" : who + " runs CUDA up to " + j.runs_up_to;
    const bool meets_floor = !j.floor.empty() && compare_driver(driver, j.floor) >= 0;
    if (!j.needs.empty() && compare_driver(driver, j.needs) >= 0) {
        j.fit = DriverFit::runs;
        j.why = says;
    } else if (!rel && meets_floor && j.runs_up_to.ends_with(or_newer) &&
               Version::parse(j.runs_up_to.substr(0, j.runs_up_to.size() - or_newer.size()))->major() == cuda.major()) {
        // A release newer than the table (13.2) on a driver newer than every row of its major.
        j.fit = DriverFit::runs;
        j.why = says + " (" + label + "'s own minimum is not in this table)";
    } else if (meets_floor) {
        j.fit = DriverFit::minor_compat;
        j.why = says + "; " + label + " runs through minor-version compatibility (>= " + j.floor +
                "), without JIT of PTX newer than the driver" +
                (j.needs.empty() ? " (" + label + "'s own minimum is not in this table)"
                                 : " (" + label + " needs >= " + j.needs + " for all of it)");
    } else if (!j.floor.empty()) {
        j.fit = DriverFit::too_old;
        j.why = says + "; " + label + " needs >= " + j.floor;
    } else {
        j.why = says + "; the table has no minimum driver for CUDA " + label + (windows ? " on Windows" : " on Linux");
    }
    return j;
}

}  // namespace cudaenv::nvidia
