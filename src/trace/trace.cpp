#include "trace/trace.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "nvidia/compat.hpp"
#include "nvidia/driver_support.hpp"
#include "nvidia/forward_compat.hpp"
#include "core/cudalibs.hpp"
#include "core/pairs.hpp"
#include "platform/platform.hpp"
#include "platform/nvidia_driver.hpp"
#include "util/elf.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::trace {

namespace fs = std::filesystem;

namespace {

std::string unescape(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            char c = s[++i];
            out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    for (const auto& f : str::split(line, '\t')) out.push_back(unescape(f));
    return out;
}

long to_long(const std::string& s) {
    int v = 0;
    long long big = 0;
    if (str::parse_int(s, v)) return v;
    try {
        big = std::stoll(s);
    } catch (...) {
    }
    return static_cast<long>(big);
}

std::string base_name(const std::string& p) {
    auto pos = p.find_last_of(platform::path_separators);
    return pos == std::string::npos ? p : p.substr(pos + 1);
}

std::string dir_name(const std::string& p) {
    auto pos = p.find_last_of(platform::path_separators);
    return pos == std::string::npos ? std::string() : p.substr(0, pos);
}

}  // namespace

Records parse_records(const std::string& text) {
    Records r;
    // The latest search candidate and requested name per process, so each
    // mapped object gets the search step that found it.
    struct Search {
        std::string flag, requester, name, asked;
    };
    std::map<long, std::vector<Search>> searches;
    std::map<long, std::string> asked;
    std::set<long> seen;
    for (const auto& line : str::split(text, '\n')) {
        if (line.size() < 3 || line[1] != '\t') continue;
        auto f = fields(line);
        if (f[0] == "P" && f.size() >= 5) {
            long pid = to_long(f[1]);
            if (!seen.insert(pid).second) {
                // exec keeps the pid: the newest image names the process.
                for (auto& p : r.processes)
                    if (p.pid == pid) p.exe = f[3], p.argv0 = f[4];
                continue;
            }
            r.processes.push_back({pid, to_long(f[2]), f[3], f[4]});
        } else if (f[0] == "S" && f.size() >= 5) {
            long pid = to_long(f[1]);
            if (f[2] == "orig") asked[pid] = f[4];
            auto& list = searches[pid];
            list.push_back({f[2], f[3], f[4], asked[pid]});
            if (list.size() > 256) list.erase(list.begin(), list.begin() + 128);
        } else if (f[0] == "O" && f.size() >= 4) {
            Load l;
            l.pid = to_long(f[1]);
            l.path = f[3];
            auto& list = searches[l.pid];
            for (auto it = list.rbegin(); it != list.rend(); ++it)
                if (it->name == l.path) {
                    l.requester = it->requester;
                    l.asked = it->asked;
                    bool given_path = it->name.find_first_of(platform::path_separators) != std::string::npos;
                    // The loader tries a name as given (LA_SER_ORIG) first; it is taken as is only when it holds a '/'.
                    l.how = it->flag == "orig" ? (given_path ? "absolute" : "") : it->flag;
                    break;
                }
            r.loads.push_back(l);
        }
    }
    return r;
}

namespace {

std::string why_words(const Load& l, const std::string& exe) {
    if (l.how == "absolute") return "asked for by absolute path";
    if (l.how == "libpath") return "found through LD_LIBRARY_PATH";
    if (l.how == "config") return "found through ld.so.cache";
    if (l.how == "default") return "found in the loader's default folders";
    if (l.how == "app-folder") return "found in the application's folder";
    if (l.how == "path") return "found through PATH";
    if (l.how == "dll-dirs")
        return "found in a folder cudaenv's Python hook adds with os.add_dll_directory (CUDAENV_DLL_DIRS)";
    if (l.how == "system") return "found in the system folder";
    if (l.how == "runpath") {
        auto who = l.requester.empty() ? exe : l.requester;
        auto dyn = elf::dynamic_section(fsx::from_utf8(who));
        if (dyn && !dyn->runpath.empty()) return "found through the RUNPATH of " + who + " (" + dyn->runpath + ")";
        if (dyn && !dyn->rpath.empty()) return "found through the RPATH of " + who + " (" + dyn->rpath + ")";
        // DT_RPATH is inherited: the executable's applies to every library it loads.
        auto main = elf::dynamic_section(fsx::from_utf8(exe));
        if (main && !main->rpath.empty()) return "found through the RPATH of " + exe + " (" + main->rpath + ")";
        return "found through an RPATH/RUNPATH";
    }
    return "";
}

bool why_is_rpath(const std::string& why) { return why.find("the RPATH of") != std::string::npos; }

std::string pair_folder(const origin::PairDirs& p, origin::Family fam) {
    const auto& dirs = fam == origin::Family::cudnn ? p.cudnn_dirs : p.toolkit_dirs;
    for (const auto& d : dirs)
        if (fsx::is_dir(d) && d.filename() != "" && (d.filename() == "lib" || d.filename() == "lib64" ||
                                                      d.filename() == "bin" || d.filename() == "x86_64-linux-gnu"))
            return fsx::to_utf8(d);
    return dirs.empty() ? std::string() : fsx::to_utf8(dirs.front());
}

std::string advice_for(const Library& lib, const Process* proc, const origin::PairDirs& pair) {
    auto fam = origin::family_of(lib.name);
    auto folder = pair_folder(pair, fam);
    std::string exe = proc ? proc->exe : "";
    std::string who = lib.load.requester.empty() ? base_name(exe) : base_name(lib.load.requester);
    bool torch = lib.load.requester.find("/torch/") != std::string::npos || lib.origin.package == "torch";
    if (lib.load.how == "absolute") {
        if (lib.origin.kind == origin::Kind::pip_wheel)
            return (torch ? std::string("torch preloads it from its wheel") : who + " loads it from the wheel " + lib.origin.package) +
                   " by absolute path: no search path can change that, so the pair only matters here when compiling "
                   "extensions (to run on the pair's copy, use a build of the framework that does not bundle it)";
        return who + " loads it by absolute path: no search path can change that; change the path it is given "
                     "(a setting, a plug-in, the program itself)";
    }
    if (lib.load.how == "runpath") {
        if (why_is_rpath(lib.why))
            return "DT_RPATH is searched even before LD_LIBRARY_PATH: only relinking " + who +
                   " without it (or `patchelf --remove-rpath`) lets the pair's copy win";
        return "LD_LIBRARY_PATH is searched before RUNPATH: run it with the pair's folder " + folder +
               " on LD_LIBRARY_PATH (the pair's folder is a system folder, which activation does not put there)";
    }
    if (lib.load.how == "libpath")
        return "LD_LIBRARY_PATH lists " + dir_name(lib.real_path) + " before the pair's folder: take it off "
               "LD_LIBRARY_PATH (or `cudaenv add` it, so activation takes it off)";
    if (lib.load.how == "config" || lib.load.how == "default")
        return "the pair's folders hold no " + lib.name + ", so the loader fell back to " + dir_name(lib.real_path) +
               ": the pair lacks this library";
    if (lib.load.how == "app-folder")
        return "Windows searches the application's folder before PATH: remove " + lib.name + " from " +
               dir_name(lib.load.path) + " so the pair's copy on PATH is found";
    if (lib.load.how == "system")
        return "Windows searches System32 before PATH: remove " + lib.name + " from " + dir_name(lib.load.path);
    if (lib.load.how == "path")
        return "PATH lists " + dir_name(lib.load.path) + " before the pair's folder: take it off PATH (or `cudaenv add` it)";
    return "it came from " + lib.origin.where;
}

std::optional<Version> parse_version(const std::string& s) { return Version::parse(s); }

// Who brought a wheel's library: the package of the library that asked for it
// ("torch" for torch/lib/libtorch_global_deps.so). Python's ctypes asks on a
// framework's behalf (torch preloads its nvidia-* wheels with ctypes.CDLL):
// then it is the framework whose own libraries asked for others in that process.
std::string framework_of(const Library& l, const std::vector<Library>& libs, const std::vector<Process>& procs) {
    auto pkg_of = [](const std::string& p) { return p.empty() ? std::string() : origin::wheel_package(fsx::from_utf8(p)); };
    auto own = pkg_of(l.load.requester);
    if (!own.empty() && !own.starts_with("nvidia-")) return own;
    if (base_name(l.load.requester).starts_with("_ctypes"))
        for (const auto& other : libs) {
            auto pkg = pkg_of(other.load.requester);
            if (other.load.pid == l.load.pid && !pkg.empty() && !pkg.starts_with("nvidia-")) return pkg;
        }
    if (!l.load.requester.empty()) return base_name(l.load.requester);
    for (const auto& p : procs)
        if (p.pid == l.load.pid) return base_name(p.exe);
    return "the program";
}

// "a", "a and b", "a, b and c"
std::string listed(const std::vector<std::string>& v) {
    if (v.size() < 2) return v.empty() ? std::string() : v[0];
    return str::join(std::vector<std::string>(v.begin(), v.end() - 1), ", ") + " and " + v.back();
}

// When a framework loads libraries of its own wheels itself (torch preloads
// its nvidia-* wheels by absolute path, and its libraries' RPATH finds the
// rest), no pair can change what it runs on: the verdict says so first, in
// one line; the libraries' details follow. A wheel counts whether or not
// cudaenv adopted its folder as a pair.
std::string bundled_line(const std::vector<Library>& libs, const std::vector<Process>& procs,
                         const origin::PairDirs& pair) {
    std::string who, cudnn_version;
    bool runtime = false, toolkit = false, cudnn = false, pairs_runtime = false, pairs_cudnn = false, by_rpath = false;
    for (const auto& l : libs) {
        auto fam = origin::family_of(l.name);
        if (l.origin.kind == origin::Kind::pair) {
            pairs_runtime = pairs_runtime || fam == origin::Family::toolkit;
            pairs_cudnn = pairs_cudnn || fam == origin::Family::cudnn;
        }
        if (l.origin.kind == origin::Kind::pair || origin::wheel_package(fsx::from_utf8(l.real_path)).empty()) continue;
        bool from_wheel_rpath = l.load.how == "runpath" && !l.load.requester.empty() &&
                                !origin::wheel_package(fsx::from_utf8(l.load.requester)).empty();
        if (l.load.how != "absolute" && !from_wheel_rpath) continue;
        by_rpath = by_rpath || from_wheel_rpath;
        if (who.empty() && l.load.how == "absolute") who = framework_of(l, libs, procs);
        if (fam == origin::Family::cudnn) {
            cudnn = true;
            if (cudnn_version.empty()) cudnn_version = l.version;
        }
        if (fam == origin::Family::toolkit) (l.name.find("cudart") != std::string::npos ? runtime : toolkit) = true;
    }
    if (who.empty()) return {};
    std::vector<std::string> what, unused;
    if (runtime) what.emplace_back("CUDA runtime");
    if (toolkit) what.emplace_back("CUDA libraries");
    if (cudnn) what.push_back("cuDNN" + (cudnn_version.empty() ? std::string() : " " + cudnn_version));
    if ((runtime || toolkit) && !pairs_runtime) unused.emplace_back("CUDA libraries");
    if (cudnn && !pairs_cudnn && !pair.cudnn_dirs.empty()) unused.emplace_back("cuDNN");
    auto line = who + " loads its wheel's " + listed(what) + (by_rpath ? " by absolute path and RPATH" : " by absolute path");
    if (unused.empty()) return line + ", beside this pair's";  // both: the mixed-release warning follows
    bool plural = unused.size() > 1 || unused[0] == "CUDA libraries";
    return line + "; this pair's " + listed(unused) + (plural ? " are" : " is") + " not used";
}

}  // namespace

Report analyse(const Records& records, const Input& input) {
    Report rep;
    rep.spec = input.spec;
    rep.processes = records.processes;
    rep.driver_version = input.driver_version;
    origin::Classifier classifier(input.pair, input.others);
    std::set<std::pair<long, std::string>> seen;
    for (const auto& l : records.loads) {
        if (!seen.insert({l.pid, l.path}).second) continue;
        Library lib;
        lib.load = l;
        auto p = fsx::from_utf8(l.path);
        lib.name = fsx::to_utf8(p.filename());
        std::error_code ec;
        auto real = fs::weakly_canonical(p, ec);
        lib.real_path = ec ? l.path : fsx::to_utf8(real);
        lib.origin = classifier.classify(p);
        lib.version = cudalibs::version_from_file_name(base_name(lib.real_path), true);
        if (lib.version.empty() && lib.origin.version) lib.version = lib.origin.version->str();
        if (lib.version.empty()) lib.version = cudalibs::version_from_file_name(lib.name, false);
        if (lib.origin.kind == origin::Kind::driver && cudalibs::is_linux_lib(lib.name, cudalibs::linux_driver)) {
            // A user-mode driver of another version than the kernel's: the cuda-compat libraries.
            auto v = cudalibs::version_from_file_name(base_name(lib.real_path), true);
            if (!v.empty() && !rep.driver_version.empty() && nvidia::compare_driver(v, rep.driver_version) != 0 &&
                rep.compat_library.empty()) {
                rep.compat_library = lib.real_path;
                rep.compat_version = v;
            }
        }
        const Process* proc = nullptr;
        for (const auto& pr : rep.processes)
            if (pr.pid == l.pid) proc = &pr;
        lib.why = why_words(l, proc ? proc->exe : "");
        lib.ok = !input.pair || lib.origin.kind == origin::Kind::pair || lib.origin.kind == origin::Kind::driver;
        if (!lib.ok) {
            lib.advice = advice_for(lib, proc, *input.pair);
            rep.problems.push_back(lib.name + " came from " + lib.origin.where + (lib.why.empty() ? "" : ", " + lib.why) +
                                   " (" + lib.real_path + "): " + lib.advice);
        }
        rep.libraries.push_back(std::move(lib));
    }

    // cuDNN's sub-libraries must all be one release (else
    // CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH at the first call).
    std::map<long, std::vector<const Library*>> cudnn_by_pid;
    for (const auto& lib : rep.libraries)
        if (origin::family_of(lib.name) == origin::Family::cudnn) cudnn_by_pid[lib.load.pid].push_back(&lib);
    for (const auto& [pid, libs] : cudnn_by_pid) {
        std::set<std::string> versions, folders;
        for (const auto* l : libs) {
            if (l->version.find('.') != std::string::npos) versions.insert(l->version);
            folders.insert(dir_name(l->real_path));
        }
        if (versions.size() > 1 || folders.size() > 1) {
            std::vector<std::string> parts;
            for (const auto* l : libs)
                parts.push_back(l->name + " " + (l->version.empty() ? "?" : l->version) + " from " + dir_name(l->real_path));
            rep.warnings.push_back("process " + std::to_string(pid) + " mixes cuDNN libraries of " +
                                   (versions.size() > 1 ? "different versions" : "different folders") + ": " +
                                   str::join(parts, ", ") +
                                   ". cuDNN refuses sub-libraries of another release (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH): "
                                   "make every libcudnn*.so come from one folder");
        }
    }

    // Forward compatibility: which libcuda ran, over which kernel driver.
    std::string effective = rep.driver_version;
    if (!rep.compat_library.empty()) {
        if (nvidia::compare_driver(rep.compat_version, rep.driver_version) > 0) {
            effective = rep.compat_version;
            rep.notes.push_back("forward compatibility: libcuda.so.1 is the cuda-compat library " + rep.compat_version + " (" +
                                rep.compat_library + "), over the kernel driver " + rep.driver_version);
        } else {
            rep.warnings.push_back("libcuda.so.1 is " + rep.compat_version + " (" + rep.compat_library +
                                   "), not newer than the kernel driver " + rep.driver_version + ": CUDA fails with " +
                                   nvidia::error_803 + "; take it off the library path");
        }
    }
    // A CUDA runtime newer than the driver supports (nvidia/driver_support decides).
    if (!effective.empty()) {
        for (const auto& lib : rep.libraries) {
            if (lib.name.find("cudart") == std::string::npos) continue;
            auto v = parse_version(lib.version);
            if (!v || v->parts().size() < 2) continue;
            auto j = nvidia::judge_driver(effective, *v, platform::is_windows);
            if (j.fit == nvidia::DriverFit::too_old)
                rep.warnings.push_back(lib.name + " is CUDA " + v->prefix(2).str() + ": " + j.why +
                                       "; CUDA calls fail with cudaErrorInsufficientDriver; update the driver or use "
                                       "an older pair");
        }
    }

    bool any_driver = false;
    for (const auto& lib : rep.libraries) any_driver = any_driver || lib.origin.kind == origin::Kind::driver;
    rep.mismatch = !rep.problems.empty() || !rep.warnings.empty();
    if (rep.processes.empty())
        rep.verdict = "no process of the command reported to the audit library, so what it loaded is not known "
                      "(a static or setuid program ignores LD_AUDIT)";
    else if (rep.libraries.empty()) rep.verdict = "the program loaded no CUDA library";
    else if (!input.pair) rep.verdict = "traced without a pair (system): where each library came from is listed above";
    else if (rep.problems.empty())
        rep.verdict = "all CUDA libraries came from " + rep.spec + (any_driver ? " (and the driver)" : "");
    else
        rep.verdict = std::to_string(rep.problems.size()) + " of " + std::to_string(rep.libraries.size()) +
                      " CUDA libraries did not come from " + rep.spec;
    if (rep.problems.empty() && !rep.warnings.empty() && input.pair) rep.verdict += ", but see the warnings";
    if (input.pair)
        if (auto line = bundled_line(rep.libraries, rep.processes, *input.pair); !line.empty()) rep.verdict = line;
    return rep;
}

Input input_for(const Activation& plan, Inventory& inventory) {
    Input input;
    input.spec = plan.full_spec;
    const auto pairs = all_pairs(inventory);
    const auto names = unique_specs(pairs, inventory);
    for (size_t i = 0; i < pairs.size(); ++i) {
        if (plan.pair && pairs[i].same_as(*plan.pair)) {
            input.spec = names[i];
            continue;
        }
        try {
            input.others.push_back(origin::pair_dirs(names[i], detect_pair(pairs[i])));
        } catch (const std::exception&) {
            // A pair whose folder has gone cannot be where a library came from.
        }
    }
    if (plan.folders) input.pair = origin::pair_dirs(input.spec, *plan.folders);
    input.driver_version = system_driver_version();
    return input;
}

std::string render_text(const Report& rep, int exit_code, const std::string& signal_name) {
    std::string out;
    out += "cudaenv trace: " + rep.spec + ": ";
    if (!signal_name.empty()) out += "the command was killed by " + signal_name + " (exit status " + std::to_string(exit_code) + ")\n";
    else out += "the command exited with status " + std::to_string(exit_code) + "\n";
    // Names and paths below are what the traced programs' own loaders
    // reported: control characters in them are shown escaped.
    if (!rep.libraries.empty()) out += "  (processes and paths as the traced programs reported them)\n";
    for (const auto& p : rep.processes) {
        std::vector<const Library*> mine;
        for (const auto& l : rep.libraries)
            if (l.load.pid == p.pid) mine.push_back(&l);
        if (mine.empty()) continue;
        out += "  process " + std::to_string(p.pid) + " (" + str::visible(p.argv0.empty() ? p.exe : p.argv0) + ")\n";
        for (const auto* l : mine) {
            out += std::string("    ") + (l->ok ? "  " : "! ") + str::visible(l->name) +
                   (l->version.empty() ? "" : " " + str::visible(l->version)) + "  " + str::visible(l->load.path) + "\n";
            out += "        from " + str::visible(l->origin.where) + (l->why.empty() ? "" : "; " + str::visible(l->why)) + "\n";
        }
    }
    out += "verdict: " + str::visible(rep.verdict) + "\n";
    for (const auto& p : rep.problems) out += "  - " + str::visible(p) + "\n";
    for (const auto& w : rep.warnings) out += "warning: " + str::visible(w) + "\n";
    for (const auto& n : rep.notes) out += "note: " + str::visible(n) + "\n";
    return out;
}

nlohmann::json to_json(const Report& rep, int exit_code, const std::string& signal_name) {
    auto procs = nlohmann::json::array();
    for (const auto& p : rep.processes)
        procs.push_back({{"pid", p.pid}, {"ppid", p.ppid}, {"exe", p.exe}, {"argv0", p.argv0}});
    auto libs = nlohmann::json::array();
    for (const auto& l : rep.libraries) {
        nlohmann::json j = {{"pid", l.load.pid},
                            {"name", l.name},
                            {"path", l.load.path},
                            {"real_path", l.real_path},
                            {"version", l.version.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.version)},
                            {"origin", origin::kind_name(l.origin.kind)},
                            {"where", l.origin.where},
                            {"how", l.load.how.empty() ? nlohmann::json(nullptr) : nlohmann::json(l.load.how)},
                            {"why", l.why},
                            {"requester", l.load.requester},
                            {"ok", l.ok}};
        if (!l.origin.pair_spec.empty()) j["pair"] = l.origin.pair_spec;
        if (!l.origin.package.empty()) j["package"] = l.origin.package;
        if (!l.ok) j["advice"] = l.advice;
        libs.push_back(j);
    }
    return {{"spec", rep.spec},
            {"exit_code", exit_code},
            {"signal", signal_name.empty() ? nlohmann::json(nullptr) : nlohmann::json(signal_name)},
            {"driver_version", rep.driver_version.empty() ? nlohmann::json(nullptr) : nlohmann::json(rep.driver_version)},
            {"processes", procs},
            {"libraries", libs},
            {"verdict", {{"mismatch", rep.mismatch}, {"summary", rep.verdict}, {"problems", rep.problems}, {"warnings", rep.warnings}, {"notes", rep.notes}}},
            {"compat_library", rep.compat_library.empty() ? nlohmann::json(nullptr) : nlohmann::json(rep.compat_library)}};
}

}  // namespace cudaenv::trace

namespace cudaenv::trace {
// The kernel module's version, as check reads it (/proc, then /sys).
std::string system_driver_version() { return platform::kernel_driver_version().value_or(""); }
}  // namespace cudaenv::trace
