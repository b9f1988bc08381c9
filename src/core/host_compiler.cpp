#include "core/host_compiler.hpp"

#include <algorithm>
#include <toml++/toml.h>

#include "core/activation.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

std::string family_name(const std::string& family) {
    return family == "gcc" ? "GCC" : family == "clang" ? "Clang" : "MSVC";
}

// The leading digits of `s` as a number, or -1.
int leading_int(const std::string& s) {
    auto digits = s.substr(0, s.find_first_not_of("0123456789"));
    int n = 0;
    return !digits.empty() && str::parse_int(digits, n) ? n : -1;
}

}  // namespace

const std::vector<HostCompilerRule>& host_compiler_rules() {
    static const std::vector<HostCompilerRule> rules = [] {
        std::vector<HostCompilerRule> out;
        auto text = embedded::find("host_compilers.toml");
        if (!text) return out;
        auto t = toml::parse(*text);
        if (auto* arr = t.get_as<toml::array>("host_compiler"))
            for (const auto& node : *arr) {
                const auto* row = node.as_table();
                if (!row) continue;
                HostCompilerRule r;
                auto v = Version::parse(row->get_as<std::string>("cuda") ? row->get_as<std::string>("cuda")->get() : "");
                if (!v) continue;
                r.cuda = *v;
                if (auto* g = row->get_as<int64_t>("gcc_max")) r.gcc_max = static_cast<int>(g->get());
                if (auto* c = row->get_as<int64_t>("clang_max")) r.clang_max = static_cast<int>(c->get());
                if (auto* m = row->get_as<std::string>("msvc")) r.msvc = m->get();
                if (auto* s = row->get_as<std::string>("source")) r.source = s->get();
                if (auto* u = row->get_as<bool>("unconfirmed")) r.unconfirmed = u->get();
                out.push_back(r);
            }
        std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.cuda < b.cuda; });
        return out;
    }();
    return rules;
}

std::optional<HostCompilerRule> host_compiler_rule(const Version& cuda) {
    std::optional<HostCompilerRule> found;
    const auto mm = Version({cuda.major(), cuda.minor()});
    for (const auto& r : host_compiler_rules())
        if (!(mm < r.cuda)) found = r;
    return found;
}

std::optional<CompilerId> parse_compiler_version(const std::string& text) {
    // cl.exe's banner (localized, but "Microsoft" and "Version 19.38.33130" stay):
    // "Microsoft (R) C/C++ Optimizing Compiler Version 19.38.33130 for x64".
    if (auto ms = text.find("Microsoft"); ms != std::string::npos) {
        auto line = text.substr(ms, text.find('\n', ms) - ms);
        if (auto at = line.find("Version "); at != std::string::npos) {
            auto v = line.substr(at + 8);
            int major = leading_int(v);
            auto dot = v.find('.');
            int minor = dot == std::string::npos ? -1 : leading_int(v.substr(dot + 1));
            if (major > 0 && minor >= 0 && minor < 100) return CompilerId{"msvc", major * 100 + minor};
        }
        return std::nullopt;
    }
    auto first = text.substr(0, text.find('\n'));
    // clang: "Debian clang version 17.0.6 (5)", "clang version 18.1.3", "Ubuntu clang version 14.0.0-1ubuntu1"
    if (auto at = first.find("clang version "); at != std::string::npos) {
        int major = 0;
        auto digits = first.substr(at + 14);
        digits = digits.substr(0, digits.find_first_not_of("0123456789"));
        if (str::parse_int(digits, major) && major > 0) return CompilerId{"clang", major};
        return std::nullopt;
    }
    // GCC: "g++ (Debian 12.2.0-14) 12.2.0", "c++ (GCC) 14.2.1 20240912": the last word is the version.
    if (first.find("(GCC)") != std::string::npos || first.starts_with("g++") || first.starts_with("c++") ||
        first.starts_with("gcc")) {
        auto last = first.substr(first.find_last_of(' ') + 1);
        int major = 0;
        if (str::parse_int(last.substr(0, last.find('.')), major) && major > 0) return CompilerId{"gcc", major};
    }
    return std::nullopt;
}

std::pair<int, int> msvc_range(const HostCompilerRule& rule) {
    auto dash = rule.msvc.find('-');
    int lo = 0, hi = 0;
    if (dash == std::string::npos || !str::parse_int(rule.msvc.substr(0, dash), lo) ||
        !str::parse_int(rule.msvc.substr(dash + 1), hi))
        return {0, 0};
    return {lo, hi};
}

int max_major(const HostCompilerRule& rule, const std::string& family) {
    if (family == "msvc") return msvc_range(rule).second;
    return family == "gcc" ? rule.gcc_max : family == "clang" ? rule.clang_max : 0;
}

std::string compiler_words(const CompilerId& id) {
    if (id.family == "msvc")
        return "MSVC " + std::to_string(id.major / 100) + "." + (id.major % 100 < 10 ? "0" : "") +
               std::to_string(id.major % 100) + " (_MSC_VER " + std::to_string(id.major) + ")";
    return family_name(id.family) + " " + std::to_string(id.major);
}

std::optional<std::string> host_compiler_mismatch(const Version& cuda, const CompilerId& cxx, const std::string& what) {
    auto rule = host_compiler_rule(cuda);
    if (!rule) return std::nullopt;
    const auto head = what + " is " + compiler_words(cxx) + "; CUDA " + Version({cuda.major(), cuda.minor()}).str() +
                      "'s nvcc accepts ";
    if (cxx.family == "msvc") {
        auto [lo, hi] = msvc_range(*rule);
        if (hi == 0 || (cxx.major >= lo && cxx.major <= hi)) return std::nullopt;
        return head + "_MSC_VER " + rule->msvc;
    }
    int max = max_major(*rule, cxx.family);
    if (max == 0 || cxx.major <= max) return std::nullopt;
    return head + family_name(cxx.family) + " up to " + std::to_string(max);
}

std::optional<std::string> default_host_compiler(const std::string& path, bool windows) {
    if (windows) return platform::find_on_path("cl.exe", path);
    for (auto name : {"g++", "c++"})
        if (auto p = platform::find_on_path(name, path)) return p;
    return std::nullopt;
}

std::optional<HostCompilerChoice> choose_host_compiler(
    const Version& cuda, const std::optional<CompilerId>& default_cxx,
    const std::function<std::optional<std::string>(const std::string&)>& find, const std::string& what) {
    if (!default_cxx || default_cxx->family == "msvc") return std::nullopt;  // a toolset is not a program on PATH
    auto why = host_compiler_mismatch(cuda, *default_cxx, what);
    if (!why) return std::nullopt;
    auto rule = host_compiler_rule(cuda);
    // The same family first (its standard library and flags are what the project expects).
    std::vector<std::string> families = {default_cxx->family, default_cxx->family == "gcc" ? "clang" : "gcc"};
    for (const auto& fam : families) {
        int max = max_major(*rule, fam);
        for (int n = max; n > 0 && n > max - 8; --n)
            if (auto p = find((fam == "gcc" ? "g++-" : "clang++-") + std::to_string(n)))
                return HostCompilerChoice{*p, *why};
    }
    return std::nullopt;
}

}  // namespace cudaenv

namespace cudaenv {

HostCompilerReport report_host_compiler(const Version& cuda, const std::string& spec,
                                        const std::function<std::optional<std::string>(const std::string&)>& env,
                                        bool windows) {
    HostCompilerReport r;
    r.rule = host_compiler_rule(cuda);
    const auto path = env("PATH").value_or("");
    // nvcc takes NVCC_CCBIN as its -ccbin; CMake passes CUDAHOSTCXX as -ccbin.
    for (const char* var : {"NVCC_CCBIN", "CUDAHOSTCXX"})
        if (auto v = env(var); v && !v->empty()) {
            r.from = var;
            r.compiler = *v;
            r.users_own = !set_by_cudaenv(env, var);
            break;
        }
    const std::string default_name = windows ? "cl.exe" : "g++";
    std::optional<std::string> exe;
    if (r.from.empty()) {
        r.from = "PATH";
        exe = default_host_compiler(path, windows);
        r.compiler = exe.value_or(default_name);
    } else if (auto p = fsx::from_utf8(r.compiler); fsx::is_dir(p)) {
        // -ccbin DIR: nvcc runs the default compiler's name in that folder.
        if (fsx::is_file(p / default_name)) exe = fsx::to_utf8(p / default_name);
    } else if (r.compiler.find_first_of(windows ? "/\\" : "/") != std::string::npos) {
        if (fsx::is_file(p)) exe = r.compiler;
    } else {
        exe = platform::find_on_path(r.compiler, path);
    }
    r.found = exe.has_value();
    if (exe) {
        r.compiler = *exe;
        std::vector<std::string> argv = {*exe};
        if (!windows) argv.push_back("--version");  // cl.exe prints its banner on stderr when run bare
        auto pr = platform::run_process(argv, platform::environment(), std::chrono::seconds(10));
        if (pr.started) r.id = parse_compiler_version(windows ? pr.err + "\n" + pr.out : pr.out);
    }
    if (!r.id || !r.rule) return r;
    const auto what =
        r.from == "PATH" ? fsx::to_utf8(fsx::from_utf8(r.compiler).filename()) : r.from + "=" + r.compiler;
    r.mismatch = host_compiler_mismatch(cuda, *r.id, what);
    if (!r.mismatch) return r;
    r.supported = choose_host_compiler(cuda, r.id, [&](const std::string& n) { return platform::find_on_path(n, path); });

    const auto mm = Version({cuda.major(), cuda.minor()}).str();
    std::string wanted;
    if (r.id->family == "msvc") {
        wanted = "a Visual Studio toolset with _MSC_VER " + r.rule->msvc;
    } else {
        wanted = "GCC up to " + std::to_string(r.rule->gcc_max) + " or Clang up to " + std::to_string(r.rule->clang_max);
    }
    if (r.users_own) {
        r.fix = "Your " + r.from + " is kept as you set it: point it at a compiler CUDA " + mm + " accepts (" +
                (r.supported ? r.supported->path : wanted) + "), or unset it and run `cudaenv use " + spec +
                "` to let cudaenv pick one.";
    } else if (r.supported) {
        r.fix = "Run `cudaenv use " + spec + "`: it sets NVCC_CCBIN and CUDAHOSTCXX to " + r.supported->path +
                " (or pass -ccbin " + r.supported->path + " to nvcc).";
    } else if (r.id->family == "msvc") {
        r.fix = "Install or select " + wanted + ": `cudaenv use " + spec +
                " --msvc` enters the newest installed one that fits (docs/msvc.md), or pass -ccbin to nvcc.";
    } else {
        r.fix = "Install a compiler CUDA " + mm + " accepts (" + wanted + ", e.g. the g++-" +
                std::to_string(r.rule->gcc_max) + " package); `cudaenv use " + spec +
                "` then sets NVCC_CCBIN and CUDAHOSTCXX to it.";
    }
    return r;
}

}  // namespace cudaenv
