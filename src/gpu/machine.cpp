#include "gpu/machine.hpp"

#include <chrono>
#include <stdexcept>

#include "nvidia/driver.hpp"
#include "nvidia/probe_gpus.hpp"
#include "core/version.hpp"
#include "store/store.hpp"
#include "platform/install_dirs.hpp"
#include "platform/nvidia_driver.hpp"
#include "platform/node.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/cache_file.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

namespace cudaenv::gpu {

namespace {

constexpr std::string_view machine_header = "cudaenv machine cache 3\n";
// How long an answer that does not last the boot, because cudaenv-probe or
// nvidia-smi hung beside a loaded driver, is kept (one that merely failed is
// asked again next time).
constexpr long long retry_after_s = 300;

long long unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::filesystem::path cache_file(const std::filesystem::path& root) { return Store::machine_cache_file(root); }

// "13000" -> "13.0"
std::string cuda_text(int v) { return v > 0 ? std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10) : ""; }

// What machine.txt's answer holds for: this boot, and the GPUs CUDA may see
// (cuDeviceGetCount counts only those CUDA_VISIBLE_DEVICES lets through).
std::string machine_key() {
    auto boot = platform::boot_id();
    if (boot.empty()) return {};
    auto visible = platform::get_env("CUDA_VISIBLE_DEVICES");
    return boot + "\nCUDA_VISIBLE_DEVICES" + (visible ? "=" + *visible : " unset");
}

// Asks the driver through cudaenv-probe, then the driver's version files and
// nvidia-smi. `lasting`: the answer holds for the rest of the boot (GPUs were
// found, or there is no NVIDIA driver at all); a probe that failed or timed
// out beside a loaded driver is asked again next time.
Machine ask_this_machine(bool& lasting, bool& hung) {
    Machine m;
    nvidia::ProbedMachine probed;
    auto probe = platform::sibling_program("cudaenv-probe");
    if (platform::is_executable(probe)) {
        auto r = platform::run_process({fsx::to_utf8(probe), "__gpus"}, platform::environment(), std::chrono::seconds(30));
        if (r.started && r.exit_code == 0) probed = nvidia::decode_probed(r.out);
        else probed.gpu_error = "cudaenv-probe could not ask the driver" + (r.timed_out ? std::string(" (timed out)") : "");
        hung = r.timed_out;
    } else {
        probed.gpu_error = "cudaenv-probe is missing beside cudaenv";
    }
    for (const auto& g : probed.gpus) m.gpus.push_back({g.index, g.name, Arch{g.major * 10 + g.minor, false}});
    m.gpu_source = m.gpus.empty() ? "" : "the driver (cudaenv-probe)";
    m.gpu_problem = m.gpus.empty() ? (probed.gpu_error.empty() ? "the driver lists no GPU" : probed.gpu_error) : "";
    m.driver_cuda = cuda_text(probed.driver_cuda);
    if (platform::is_driver_version(probed.driver)) {
        m.driver = probed.driver;
        m.driver_source = "NVML";
    } else if (auto v = platform::kernel_driver_version()) {
        m.driver = *v;
        m.driver_source = "the kernel module";
    }
    bool smi_hung = false;
    if (m.driver.empty() || m.driver_cuda.empty()) {
        // Its answer is validated (nvidia/driver); a hung one is given up on and, with the rest, kept a few minutes.
        auto r = platform::run_process({"nvidia-smi"}, platform::environment(), std::chrono::seconds(10));
        smi_hung = r.timed_out;
        hung = hung || r.timed_out;
        if (r.timed_out) m.gpu_problem += std::string(m.gpu_problem.empty() ? "" : "; ") + "nvidia-smi did not answer in 10 s";
        if (r.started && r.exit_code == 0) {
            auto [drv, cuda] = nvidia::parse_nvidia_smi(r.out);
            if (m.driver.empty() && !drv.empty()) {
                m.driver = drv;
                m.driver_source = "nvidia-smi";
            }
            if (m.driver_cuda.empty()) m.driver_cuda = cuda;
        }
    }
    lasting = (m.known() || m.driver.empty()) && !smi_hung;
    return m;
}

void save(const std::filesystem::path& root, const Machine& m, const std::string& key, long long until) {
    if (!key.empty()) save_cache_file(cache_file(root), encode_machine(m, key, until));
}

}  // namespace

std::string Machine::override_note() const {
    std::vector<std::string> parts;
    if (gpu_override) {
        std::vector<std::string> names;
        for (const auto& g : gpus) names.push_back(g.arch.sass_name());
        parts.push_back("GPU " + str::join(names, ",") + " from " + gpu_source);
    }
    if (driver_override) parts.push_back("driver " + driver + " from " + driver_source);
    return parts.empty() ? "" : "planning for " + str::join(parts, " and ") + ", not this machine";
}

std::string Machine::label(const MachineGpu& g) const {
    if (gpu_override) return g.arch.sass_name();
    return "GPU " + std::to_string(g.index) + " (" + (g.name.empty() ? "" : g.name + ", ") + g.arch.sass_name() + ")";
}

std::vector<Arch> parse_gpu_list(const std::string& text, const std::string& what) {
    std::vector<Arch> out;
    for (const auto& part : str::split(text, ',')) {
        auto t = str::trim(part);
        if (t.empty()) continue;
        auto a = Arch::parse(t);
        if (!a || a->specific || a->family || a->unknown)
            throw UsageError(what + ": '" + std::string(t) + "' is not a GPU architecture",
                             "give compute capabilities as sm_XY or X.Y, e.g. --gpu sm_61,sm_90 or --gpu 8.6");
        out.push_back(*a);
    }
    if (out.empty()) throw UsageError(what + " names no GPU", "e.g. --gpu sm_61");
    return out;
}

std::string encode_machine(const Machine& m, const std::string& key, long long until) {
    std::string out(machine_header);
    records::put_record(out, {"machine", key, m.driver, m.driver_source, m.driver_cuda, m.gpu_source, m.gpu_problem,
                              std::to_string(until)});
    for (const auto& g : m.gpus) records::put_record(out, {"gpu", std::to_string(g.index), std::to_string(g.arch.sm), g.name});
    return out;
}

bool decode_machine(const std::string& text, const std::string& key, Machine& out, long long now) {
    if (key.empty() || !text.starts_with(machine_header)) return false;
    records::Reader r(std::string_view(text).substr(machine_header.size()));
    std::vector<std::string_view> fields;
    Machine m;
    bool ok = false;
    try {
        while (r.next(fields)) {
            if (!r.intact()) return false;  // changed in place: ask the driver again
            records::Fields f(fields);
            auto kind = f.next();
            if (kind == "machine") {
                if (f.next() != key) return false;  // another boot, other visible GPUs: ask again
                m.driver = f.str();
                m.driver_source = f.str();
                m.driver_cuda = f.str();
                m.gpu_source = f.str();
                m.gpu_problem = f.str();
                auto until = f.number();
                if (until != 0 && (now ? now : unix_now()) >= until) return false;  // a failed answer's minutes are up
                ok = true;
            } else if (kind == "gpu" && ok) {
                MachineGpu g;
                g.index = static_cast<int>(f.number());
                g.arch.sm = static_cast<int>(f.number());
                g.name = f.str();
                if (g.arch.sm < 10 || g.arch.sm > 999) return false;
                m.gpus.push_back(g);
            }
        }
    } catch (const std::out_of_range&) {
        return false;
    }
    if (!ok || r.damaged()) return false;
    out = m;
    return true;
}

Machine this_machine(const std::filesystem::path& store_root, const Overrides& given, Probe probe) {
    auto from = [](const std::string& flag_value, const char* flag, const char* env, std::string& source) {
        if (!flag_value.empty()) {
            source = flag;
            return flag_value;
        }
        auto v = platform::get_env(env);
        if (v && !v->empty()) {
            source = env;
            return *v;
        }
        return std::string();
    };
    std::string gpu_source, driver_source;
    auto gpu_text = from(given.gpu, "--gpu", "CUDAENV_GPU", gpu_source);
    auto driver_text = from(given.driver, "--driver", "CUDAENV_DRIVER", driver_source);
    if (!driver_text.empty() && !platform::is_driver_version(driver_text))
        throw UsageError(driver_source + ": '" + driver_text + "' is not a driver version", "e.g. --driver 535.104.05");

    Machine m;
    const auto key = machine_key();
    auto kept = fsx::read_file(cache_file(store_root), 1 << 20);
    bool have = kept && decode_machine(*kept, key, m);
    if (!have && probe == Probe::allowed && gpu_text.empty()) {
        bool lasting = false, hung = false;
        m = ask_this_machine(lasting, hung);
        // A hung driver tool is not waited for again on every command: its answer is kept a few minutes.
        if (lasting || hung) save(store_root, m, key, lasting ? 0 : unix_now() + retry_after_s);
    } else if (!have) {
        m = Machine{};
        if (probe == Probe::cache_only)
            m.gpu_problem = "no GPU recorded for this boot yet (`cudaenv inspect` or `cudaenv doctor` asks the driver)";
        if (auto v = platform::kernel_driver_version()) {  // a file read, no process
            m.driver = *v;
            m.driver_source = "the kernel module";
        }
    }
    if (!gpu_text.empty()) {
        m.gpus.clear();
        int i = 0;
        for (const auto& a : parse_gpu_list(gpu_text, gpu_source)) m.gpus.push_back({i++, "", a});
        m.gpu_source = gpu_source;
        m.gpu_problem.clear();
        m.gpu_override = true;
    }
    if (!driver_text.empty()) {
        m.driver = driver_text;
        m.driver_source = driver_source;
        m.driver_cuda.clear();
        m.driver_override = true;
    }
    return m;
}

}  // namespace cudaenv::gpu
