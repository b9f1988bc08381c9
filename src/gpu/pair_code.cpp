#include "gpu/pair_code.hpp"

#include <algorithm>
#include <charconv>
#include <iostream>
#include <set>

#include "check/compat.hpp"
#include "core/cudalibs.hpp"
#include "store/detect_cache.hpp"
#include "platform/platform.hpp"
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
TableVerdict kept_or_asked(CodeCache* memo, const std::string& what, const Version& v, const Arch& gpu, Ask ask) {
    if (!memo) return ask();
    const auto key = what + " " + v.str() + " " + gpu.sass_name() + " @" + tables_hash();
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
const GroupVerdict& worst_of(const GroupVerdict& a, const GroupVerdict& b) { return combine(a.runs, b.runs) == a.runs ? a : b; }

GroupVerdict decide(const GroupVerdict& scan, const TableVerdict& table, std::string& note) {
    if (scan.runs == Runs::no_code) {
        if (table.runs == Runs::no_code) return {};
        return {table.runs, table.why + (table.unconfirmed ? " [unconfirmed: " : " [") + table.source + "]"};
    }
    if (table.runs != Runs::no_code && table.runs != scan.runs)
        note = "the table says " + std::string(runs_name(table.runs)) + " (" + table.why + "), the libraries say " +
               runs_name(scan.runs) + ": going by the libraries";
    return scan;
}

}  // namespace

PairVerdict judge_pair(const Version& cuda, const std::optional<Version>& cudnn, const std::vector<LibraryCode>& libs,
                       const Machine& m, TableUse table, CodeCache* memo) {
    PairVerdict out;
    for (const auto& g : m.gpus) {
        GpuVerdict v;
        v.gpu = g;
        std::string note_tk, note_dnn;
        auto ask = [&](const GroupVerdict& scan, auto row) {
            return table == TableUse::compare || (table == TableUse::fallback && scan.runs == Runs::no_code) ? row() : TableVerdict{};
        };
        auto tk_table = [&] { return kept_or_asked(memo, "cuda", cuda, g.arch, [&] { return table_cuda(cuda, g.arch); }); };
        auto tk_scan = scanned(libs, false, g.arch);
        auto tk = decide(tk_scan, ask(tk_scan, tk_table), note_tk);
        GroupVerdict dnn;
        if (cudnn) {
            auto dnn_table = [&] {
                return kept_or_asked(memo, "cudnn", *cudnn, g.arch, [&] { return table_cudnn(*cudnn, g.arch); });
            };
            auto dnn_scan = scanned(libs, true, g.arch);
            dnn = decide(dnn_scan, ask(dnn_scan, dnn_table), note_dnn);
        }
        const auto& worst = worst_of(tk, dnn);
        v.runs = worst.runs;
        v.why = worst.why;
        v.note = note_tk.empty() ? note_dnn : note_dnn.empty() ? note_tk : note_tk + "; " + note_dnn;
        out.runs = combine(out.runs, v.runs);
        out.gpus.push_back(v);
    }
    return out;
}

std::string PairVerdict::line(const Machine& m) const {
    if (gpus.empty()) return "?";
    if (runs == Runs::native) return "native";
    if (runs == Runs::no_code) return "?";
    for (const auto& g : gpus)
        if (g.runs == runs) {
            std::string who = gpus.size() > 1 || !m.gpu_override ? m.label(g.gpu) + ": " : "";
            return std::string(runs_name(runs)) + ": " + who + g.why + (runs == Runs::jit ? "; " + jit_cache_note() : "");
        }
    return runs_name(runs);
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
    std::string where = path && !path->empty() ? *path
                        : platform::is_windows ? "%APPDATA%\\NVIDIA\\ComputeCache"
                                               : "~/.nv/ComputeCache";
    std::string limit = size && !size->empty() ? *size + " bytes (CUDA_CACHE_MAXSIZE)" : "256 MiB (CUDA_CACHE_MAXSIZE, at most 4 GiB)";
    return "JIT cache " + where + ", up to " + limit;
}


std::vector<PairVerdict> judge_pairs(const std::vector<Pair>& pairs, DetectionCache& folders, CodeCache& cache,
                                     const Machine& m, Scan scan) {
    std::vector<PairVerdict> out(pairs.size());
    if (!m.known()) return out;
    for (size_t i = 0; i < pairs.size(); ++i) {
        try {
            std::optional<Version> cudnn;
            if (pairs[i].cudnn) cudnn = pairs[i].cudnn->version;
            auto libs = scan == Scan::read ? kept_pair_libraries(pairs[i], cache) : std::nullopt;
            if (!libs) libs = pair_libraries(detect_pair(pairs[i], folders), cache, scan);
            out[i] = judge_pair(pairs[i].toolkit.version, cudnn, *libs, m, TableUse::fallback, &cache);
        } catch (const Error&) {
            // a folder that has gone: `list` shows the pair, `check` says what is wrong
        }
    }
    return out;
}

std::optional<std::string> runs_warning(const std::filesystem::path& store_root, const DetectedPair& pair) {
    auto m = this_machine(store_root, {}, Probe::cache_only);
    if (!m.known()) return std::nullopt;
    CodeCache cache(store_root);
    auto libs = pair_libraries(pair, cache, Scan::kept_only);
    std::optional<Version> cudnn;
    if (pair.cudnn) cudnn = pair.cudnn->version;
    auto v = judge_pair(pair.toolkit.version, cudnn, libs, m, TableUse::never);
    for (const auto& g : v.gpus)
        if (g.runs == Runs::no) {
            auto note = m.override_note();
            return "this pair cannot run on " + m.label(g.gpu) + ": " + g.why + (note.empty() ? "" : " (" + note + ")");
        }
    return std::nullopt;
}

void warn_if_cannot_run(const std::filesystem::path& store_root, const std::optional<DetectedPair>& pair) {
    if (!pair) return;
    try {
        if (auto w = runs_warning(store_root, *pair)) std::cerr << "cudaenv: warning: " << *w << "\n";
    } catch (const Error&) {
    }
}

std::string runs_cell(const PairVerdict& v) {
    if (v.gpus.empty() || v.runs == Runs::no_code) return "?";
    return runs_name(v.runs);
}

}  // namespace cudaenv::gpu
