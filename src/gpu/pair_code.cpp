#include "gpu/pair_code.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <set>

#include "nvidia/compat.hpp"
#include "core/activation.hpp"
#include "core/cudalibs.hpp"
#include "store/detect_cache.hpp"
#include "platform/platform.hpp"
#include "platform/nvidia_driver.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::gpu {

namespace {

// The toolkit's libraries that carry GPU code, and the runtime (which carries none).
const std::vector<std::string>& judged_toolkit_libraries() {
    static const std::vector<std::string> libs = [] {
        auto l = cudalibs::toolkit_libraries();
        l.push_back("cusolver");
        l.push_back("cudart");
        return l;
    }();
    return libs;
}

// The major a library's file name carries (9 for libcudnn_ops.so.9.14.0); 0 when none.
int major_in_name(const std::string& name) {
    auto v = cudalibs::version_from_file_name(name);
    int major = 0;
    std::from_chars(v.data(), v.data() + v.size(), major);
    return major;
}

// `major`: the pair's cuDNN major, or its CUDA major. A shared system folder
// can hold libcudnn*.so.8 beside libcudnn*.so.9, or libcublas.so.11 beside
// libcublas.so.12: only this pair's are judged.
bool is_pair_library(const std::string& name, bool cudnn_dir, bool windows, int major) {
    if (cudnn_dir) {
        if (cudalibs::family_of(name) != cudalibs::Family::cudnn) return false;
        if (int m = major_in_name(name); m && major && m != major) return false;
        return windows ? str::to_lower_ascii(name).ends_with(".dll") : name.find(".so.") != std::string::npos;
    }
    if (int m = cudalibs::cuda_major_of_dependency(name); m && major && m != major) return false;
    for (const auto& lib : judged_toolkit_libraries())
        if (windows ? cudalibs::is_toolkit_library(name, lib, true) : cudalibs::is_linux_lib(name, "lib" + lib + ".so"))
            return true;
    return false;
}

std::vector<std::filesystem::path> dirs_of(const DetectedPair& p, bool cudnn) {
    std::vector<std::filesystem::path> out;
    auto add = [&](const std::vector<std::filesystem::path>& ds) {
        for (const auto& d : ds)
            if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
    };
    if (cudnn) {
        if (!p.cudnn) return out;
        add(p.cudnn->windows ? p.cudnn->bin_dirs : p.cudnn->lib_dirs);
        add(layout::recognizer(p.cudnn->layout).outside_dirs());
    } else {
        add(p.toolkit.windows ? p.toolkit.bin_dirs : p.toolkit.lib_dirs);
        add(layout::recognizer(p.toolkit.layout).outside_dirs());
    }
    return out;
}

// Lists `dirs` for the pair's libraries: each real file once (links resolved).
std::vector<std::filesystem::path> list_libraries(const std::vector<std::filesystem::path>& dirs, bool cudnn, bool windows,
                                                  int major) {
    std::set<std::filesystem::path> seen;
    std::vector<std::filesystem::path> out;
    for (const auto& d : dirs) {
        std::error_code ec;
        std::vector<std::filesystem::path> found;
        for (std::filesystem::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
            if (is_pair_library(fsx::to_utf8(it->path().filename()), cudnn, windows, major)) found.push_back(it->path());
        std::sort(found.begin(), found.end());
        for (const auto& f : found) {
            std::error_code e2;
            auto real = std::filesystem::canonical(f, e2);
            if (e2 || !std::filesystem::is_regular_file(real, e2) || !seen.insert(real).second) continue;
            out.push_back(real);
        }
    }
    return out;
}

// A table verdict through the code cache (`memo`, when there is one): one
// kept there is not asked again, so no TOML is parsed.
template <class Ask>
TableVerdict kept_or_asked(CodeCache* memo, const std::string& question, const Arch& gpu, Ask ask) {
    if (!memo) return ask();
    const auto key = question + " " + gpu.sass_name() + " @" + tables_hash();
    if (auto kept = memo->kept_table(key)) return *kept;
    auto verdict = ask();
    memo->keep_table(key, verdict);
    return verdict;
}

// The id a pair's listing is kept under: the group, its folder, its major.
std::string listing_id(bool cudnn, const std::filesystem::path& root, int major) {
    return std::string(cudnn ? "cudnn" : "toolkit") + "\n" + fsx::to_utf8(root) + "\n" + std::to_string(major);
}

// The pair's libraries from the kept listings alone, while the folders kept
// with them hold: `list` then detects no folder again (nullopt: ask detection).
std::optional<std::vector<LibraryCode>> kept_pair_libraries(const Pair& pair, CodeCache& cache) {
    std::vector<LibraryCode> out;
    for (bool cudnn : {false, true}) {
        if (cudnn && !pair.cudnn) continue;
        auto files = cache.kept_listing(cudnn ? listing_id(true, pair.cudnn->path, pair.cudnn->version.major())
                                              : listing_id(false, pair.toolkit.path, pair.toolkit.version.major()));
        if (!files) return std::nullopt;
        for (const auto& f : *files) out.push_back({f, cudnn, cache.file(f)});
    }
    return out;
}

}  // namespace

std::vector<LibraryCode> pair_libraries(const DetectedPair& pair, CodeCache& cache, Scan scan) {
    std::vector<LibraryCode> out;
    for (bool cudnn : {false, true}) {
        auto dirs = dirs_of(pair, cudnn);
        if (dirs.empty()) continue;
        const bool windows = cudnn ? pair.cudnn->windows : pair.toolkit.windows;
        const int major = cudnn ? pair.cudnn->version.major() : pair.toolkit.version.major();
        std::string id = listing_id(cudnn, cudnn ? pair.cudnn->root : pair.toolkit.root, major);
        auto files = cache.kept_listing(id, dirs);
        if (!files) {
            if (scan == Scan::kept_only) continue;
            files = list_libraries(dirs, cudnn, windows, major);
            cache.keep_listing(id, dirs, *files);
        }
        for (const auto& f : *files) {
            if (scan == Scan::kept_only) {
                if (auto k = cache.kept(f)) out.push_back({f, cudnn, *k});
            } else {
                out.push_back({f, cudnn, cache.file(f)});
            }
        }
    }
    return out;
}


namespace {

struct GroupVerdict {
    Runs runs = Runs::no_code;
    std::string why;
    bool unconfirmed = false;
};

// The worst of the scanned libraries of one group (toolkit or cuDNN) on `gpu`.
GroupVerdict scanned(const std::vector<LibraryCode>& libs, bool cudnn, const Arch& gpu) {
    GroupVerdict g;
    for (const auto& l : libs) {
        if (l.cudnn != cudnn || !l.file.code.has_kernels()) continue;
        auto v = judge(l.file.code, gpu);
        if (g.runs == Runs::no_code || worse(v.runs, g.runs) != g.runs) {
            g.runs = v.runs;
            g.why = fsx::to_utf8(l.path.filename()) + ": " + v.why;
        }
    }
    return g;
}

// The worse of two; one that knows nothing (no_code) never wins.
Runs combine(Runs a, Runs b) { return a == Runs::no_code ? b : b == Runs::no_code ? a : worse(a, b); }
const GroupVerdict& worst_of(const GroupVerdict& a, const GroupVerdict& b) {
    if (a.runs == b.runs) return a.unconfirmed && !b.unconfirmed ? b : a;  // a confirmed "no" speaks louder
    return combine(a.runs, b.runs) == a.runs ? a : b;
}

GroupVerdict decide(const GroupVerdict& scan, const TableVerdict& table, std::string& note) {
    if (scan.runs == Runs::no_code) {
        if (table.runs == Runs::no_code) return {};
        return {table.runs, table.why + (table.unconfirmed ? " [unconfirmed: " : " [") + table.source + "]", table.unconfirmed};
    }
    if (table.runs != Runs::no_code && table.runs != scan.runs)
        note = "the table says " + std::string(runs_name(table.runs)) + " (" + table.why + "), the libraries say " +
               runs_name(scan.runs) + ": going by the libraries";
    return scan;
}

// The driver's verdict through the code cache (`memo`), as the table's: `list` parses no TOML for it.
nvidia::DriverJudgement driver_verdict(CodeCache* memo, const Version& cuda, const Machine& m) {
    auto ask = [&] { return nvidia::judge_driver(m.driver, cuda, platform::is_windows, m.driver_cuda); };
    if (!memo) return ask();
    const auto key = "driver " + cuda.str() + " " + m.driver + " " + m.driver_cuda + " " +
                     platform::os_name(platform::host_os) + " @" + tables_hash();
    if (auto kept = memo->kept_table(key)) {
        nvidia::DriverJudgement j;
        j.fit = static_cast<nvidia::DriverFit>(static_cast<int>(kept->runs));
        j.driver = m.driver;
        j.why = kept->why;
        j.floor = kept->source;
        return j;
    }
    auto j = ask();
    memo->keep_table(key, {static_cast<Runs>(static_cast<int>(j.fit)), j.why, j.floor, false});
    return j;
}

bool driver_refuses(const PairVerdict& v) {
    return v.driver.fit == nvidia::DriverFit::too_old && v.compat.kind != nvidia::CompatChoice::Kind::use;
}

// JIT needs the driver to compile the release's PTX: through minor-version compatibility it cannot.
bool jit_without_driver(const PairVerdict& v) {
    return v.runs == Runs::jit && v.driver.fit == nvidia::DriverFit::minor_compat;
}

// What a lock recorded the pair to need, against the machine: the GPUs'
// compute capability (SASS of a major runs on its later minors) and the driver.
void apply_recorded(PairVerdict& v, const PairNeeds& needs, const Machine& m) {
    for (auto& g : v.gpus) {
        const Version cc({g.gpu.arch.major(), g.gpu.arch.minor()});
        const bool below = !needs.cc_lo.empty() && cc < needs.cc_lo;
        const bool above = !needs.cc_hi.empty() && needs.cc_hi.major() < cc.major();
        if ((below || above) && g.runs != Runs::no) {
            g.runs = Runs::no;
            g.unconfirmed = false;
            g.why = "the lock says the pair needs compute capability " + needs.cc_lo.str() + "-" + needs.cc_hi.str() +
                    ", not " + g.gpu.arch.cc();
            v.runs = Runs::no;
        }
    }
    const auto& min = needs.min_driver_on(platform::is_windows);
    if (!min.empty() && Version::parse(m.driver) && nvidia::compare_driver(m.driver, min) < 0 &&
        v.driver.fit != nvidia::DriverFit::too_old) {
        v.driver.fit = nvidia::DriverFit::too_old;
        v.driver.driver = m.driver;
        v.driver.floor = min;
        v.driver.why = "driver " + m.driver + " is older than the lock's minimum, " + min;
    }
}

}  // namespace

std::vector<nvidia::CompatGpu> compat_gpus(const Machine& m) {
    std::vector<nvidia::CompatGpu> out;
    for (const auto& g : m.gpus) out.push_back({m.label(g), g.name});
    return out;
}

PairVerdict judge_pair(const std::optional<Version>& cuda, const std::optional<Version>& cudnn,
                       const std::vector<LibraryCode>& libs, const Machine& m, TableUse table, CodeCache* memo,
                       const std::filesystem::path& toolkit_root, const PairNeeds* recorded) {
    PairVerdict out;
    for (const auto& g : m.gpus) {
        GpuVerdict v;
        v.gpu = g;
        std::string note_tk, note_dnn;
        auto ask = [&](const GroupVerdict& scan, auto row) {
            return table == TableUse::compare || (table == TableUse::fallback && scan.runs == Runs::no_code) ? row() : TableVerdict{};
        };
        GroupVerdict tk;
        if (cuda) {
            auto tk_table = [&] { return kept_or_asked(memo, "cuda " + cuda->str(), g.arch, [&] { return table_cuda(*cuda, g.arch); }); };
            auto tk_scan = scanned(libs, false, g.arch);
            tk = decide(tk_scan, ask(tk_scan, tk_table), note_tk);
        }
        GroupVerdict dnn;
        if (cudnn) {
            // The cuDNN's row may depend on the CUDA it is built for (Blackwell needs CUDA 12.8+).
            const auto question = "cudnn " + cudnn->str() + (cuda ? " cuda " + cuda->str() : "");
            auto dnn_table = [&] {
                return kept_or_asked(memo, question, g.arch, [&] { return table_cudnn(*cudnn, g.arch, cuda); });
            };
            auto dnn_scan = scanned(libs, true, g.arch);
            dnn = decide(dnn_scan, ask(dnn_scan, dnn_table), note_dnn);
        }
        const auto& worst = worst_of(tk, dnn);
        v.runs = worst.runs;
        v.why = worst.why;
        v.unconfirmed = worst.runs == Runs::no && worst.unconfirmed;
        v.note = note_tk.empty() ? note_dnn : note_dnn.empty() ? note_tk : note_tk + "; " + note_dnn;
        out.runs = combine(out.runs, v.runs);
        out.gpus.push_back(v);
    }
    if (cuda && (!m.driver.empty() || !m.driver_cuda.empty())) {
        out.driver = driver_verdict(memo, *cuda, m);
        if (out.driver.fit == nvidia::DriverFit::too_old) {
            auto host = nvidia::judge_driver(m.driver, *cuda, platform::is_windows, m.driver_cuda);
            out.compat = nvidia::decide_forward_compat(
                host, *cuda, compat_gpus(m), nvidia::find_compat_libs(nvidia::compat_dirs(toolkit_root, *cuda, platform::is_windows)),
                platform::is_windows);
        }
    }
    if (recorded) apply_recorded(out, *recorded, m);
    return out;
}

std::string PairVerdict::refusal(const Machine& m) const {
    std::vector<std::string> why;
    for (const auto& g : gpus)
        if (g.runs == Runs::no && !g.unconfirmed) {
            why.push_back(m.label(g.gpu) + ": " + g.why);
            break;
        }
    if (driver_refuses(*this)) why.push_back(compat.why.empty() ? driver.why : compat.why);
    else if (jit_without_driver(*this))
        why.push_back(driver.why + "; this GPU needs that PTX JIT-compiled, which the driver cannot");
    return str::join(why, "; ");
}

std::string PairVerdict::cell() const {
    if (driver_refuses(*this) || jit_without_driver(*this)) return "no";
    if (gpus.empty() || runs == Runs::no_code) return "?";
    if (runs == Runs::no) {
        for (const auto& g : gpus)
            if (g.runs == Runs::no && !g.unconfirmed) return "no";
        return "no?";
    }
    return runs_name(runs);
}

std::string PairVerdict::driver_note() const {
    if (compat.kind == nvidia::CompatChoice::Kind::use) return "forward compatibility " + compat.libs.version;
    if (driver.fit == nvidia::DriverFit::too_old) return "driver " + driver.driver + " too old";
    if (driver.fit == nvidia::DriverFit::minor_compat) return "driver " + driver.driver + ": minor-version compatibility";
    return "";
}

bool PairVerdict::notable() const {
    return runs == Runs::jit || runs == Runs::no || driver.fit == nvidia::DriverFit::minor_compat ||
           driver.fit == nvidia::DriverFit::too_old;
}

std::string PairVerdict::line(const Machine& m) const {
    std::vector<std::string> parts;
    if (gpus.empty() || runs == Runs::no_code) {
        if (driver.fit == nvidia::DriverFit::unknown) return "?";
    } else if (runs != Runs::native) {
        for (const auto& g : gpus)
            if (g.runs == runs) {
                std::string who = gpus.size() > 1 || !m.gpu_override ? m.label(g.gpu) + ": " : "";
                parts.push_back(who + g.why + (runs == Runs::jit ? "; " + jit_cache_note() : "") +
                                (g.unconfirmed ? " (unconfirmed: a warning, not a refusal)" : ""));
                break;
            }
    }
    if (driver.fit == nvidia::DriverFit::too_old) parts.push_back(compat.why.empty() ? driver.why : compat.why);
    else if (driver.fit == nvidia::DriverFit::minor_compat) parts.push_back(driver.why);
    auto head = cell();
    if (head == "?" && parts.empty()) return "?";
    if (head == "?") head = driver.fit == nvidia::DriverFit::too_old ? "no" : "driver";
    return parts.empty() ? head : head + ": " + str::join(parts, "; ");
}

std::vector<std::string> loaded_library_warnings(const std::vector<std::string>& paths, const Machine& m, CodeCache& cache) {
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& p : paths) {
        if (p.empty() || !seen.insert(p).second) continue;
        auto code = cache.file(fsx::from_utf8(p));
        if (!code.code.has_kernels()) continue;
        for (const auto& g : m.gpus) {
            auto v = judge(code.code, g.arch);
            if (v.runs != Runs::no) continue;
            out.push_back(fsx::to_utf8(fsx::from_utf8(p).filename()) + " (" + p + ") has " + v.why +
                          (m.gpu_override ? "" : " on " + m.label(g)) +
                          ": its kernels fail with \"no kernel image is available for execution on the device\"; "
                          "use a release built for this GPU");
            break;
        }
    }
    return out;
}

std::string jit_cache_note() {
    auto path = platform::get_env("CUDA_CACHE_PATH");
    auto size = platform::get_env("CUDA_CACHE_MAXSIZE");
    std::string where = path && !path->empty() ? *path : platform::jit_cache_default;
    std::string limit = size && !size->empty() ? *size + " bytes (CUDA_CACHE_MAXSIZE)" : "256 MiB (CUDA_CACHE_MAXSIZE, at most 4 GiB)";
    return "JIT cache " + where + ", up to " + limit;
}


std::vector<PairVerdict> judge_pairs(const std::vector<Pair>& pairs, DetectionCache& folders, CodeCache& cache,
                                     const Machine& m, Scan scan) {
    std::vector<PairVerdict> out(pairs.size());
    const bool driver_known = !m.driver.empty() || !m.driver_cuda.empty();
    if (!m.known() && !driver_known) return out;
    for (size_t i = 0; i < pairs.size(); ++i) {
        try {
            std::optional<Version> cudnn;
            if (pairs[i].cudnn) cudnn = pairs[i].cudnn->version;
            std::optional<std::vector<LibraryCode>> libs;
            if (m.known()) {  // the libraries matter only for a GPU
                if (scan == Scan::read) libs = kept_pair_libraries(pairs[i], cache);
                if (!libs) libs = pair_libraries(detect_pair(pairs[i], folders), cache, scan);
            }
            out[i] = judge_pair(pairs[i].toolkit.version, cudnn, libs.value_or(std::vector<LibraryCode>{}), m,
                                TableUse::fallback, &cache, pairs[i].toolkit.path);
        } catch (const Error&) {
            // a folder that has gone: `list` shows the pair, `check` says what is wrong
        }
    }
    return out;
}

namespace {

// The verdict of an activation: from the caches only (no probe, no library read).
std::optional<PairVerdict> activation_verdict(const std::filesystem::path& store_root, const DetectedPair& pair,
                                              Machine& m) {
    m = this_machine(store_root, {}, Probe::cache_only);
    if (!m.known() && m.driver.empty() && m.driver_cuda.empty()) return std::nullopt;
    CodeCache cache(store_root);
    auto libs = pair_libraries(pair, cache, Scan::kept_only);
    std::optional<Version> cudnn;
    if (pair.cudnn) cudnn = pair.cudnn->version;
    return judge_pair(pair.toolkit.version, cudnn, libs, m, TableUse::never, &cache, pair.toolkit.root);
}

std::optional<std::string> warning_of(const PairVerdict& v, const Machine& m) {
    auto note = m.override_note();
    note = note.empty() ? "" : " (" + note + ")";
    for (const auto& g : v.gpus)
        if (g.runs == Runs::no && !g.unconfirmed) return "this pair cannot run on " + m.label(g.gpu) + ": " + g.why + note;
    if (v.cell() == "no") return "this pair cannot run with this driver: " + v.refusal(m) + note;
    return std::nullopt;
}

}  // namespace

void apply_forward_compat(const std::filesystem::path& store_root, const DetectedPair& pair, EnvDiff& diff) {
    if (!nvidia::has_forward_compat(platform::is_windows)) return;
    try {
        Machine m;
        auto v = activation_verdict(store_root, pair, m);
        if (v && v->compat.kind == nvidia::CompatChoice::Kind::use)
            put_first(diff, "LD_LIBRARY_PATH", fsx::to_utf8(v->compat.libs.dir), PathStyle::posix);
    } catch (const Error&) {
    }
}

std::optional<std::string> runs_warning(const std::filesystem::path& store_root, const DetectedPair& pair) {
    Machine m;
    auto v = activation_verdict(store_root, pair, m);
    return v ? warning_of(*v, m) : std::nullopt;
}

void warn_if_cannot_run(const std::filesystem::path& store_root, const std::optional<DetectedPair>& pair, EnvDiff* diff) {
    if (!pair) return;
    try {
        Machine m;
        auto v = activation_verdict(store_root, *pair, m);
        if (!v) return;
        if (auto w = warning_of(*v, m)) std::cerr << "cudaenv: warning: " << *w << "\n";
        // Forward compatibility: the compat libraries first, where the decision says so.
        if (diff && v->compat.kind == nvidia::CompatChoice::Kind::use)  // never on Windows (nvidia/forward_compat)
            put_first(*diff, "LD_LIBRARY_PATH", fsx::to_utf8(v->compat.libs.dir), PathStyle::posix);
    } catch (const Error&) {
    }
}

std::string runs_cell(const PairVerdict& v) { return v.cell(); }

}  // namespace cudaenv::gpu
