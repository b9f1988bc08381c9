#include "core/host_compiler.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "core/detect_cache.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

std::string family_name(const std::string& family) { return family == "gcc" ? "GCC" : "Clang"; }

}  // namespace

const std::vector<HostCompilerRule>& host_compiler_rules() {
    static const std::vector<HostCompilerRule> rules = [] {
        std::vector<HostCompilerRule> out;
        auto text = embedded::find("compat.toml");
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

int max_major(const HostCompilerRule& rule, const std::string& family) {
    return family == "gcc" ? rule.gcc_max : family == "clang" ? rule.clang_max : 0;
}

std::optional<std::string> host_compiler_mismatch(const Version& cuda, const CompilerId& cxx) {
    auto rule = host_compiler_rule(cuda);
    if (!rule) return std::nullopt;
    int max = max_major(*rule, cxx.family);
    if (max == 0 || cxx.major <= max) return std::nullopt;
    return "c++ is " + family_name(cxx.family) + " " + std::to_string(cxx.major) + "; CUDA " +
           Version({cuda.major(), cuda.minor()}).str() + "'s nvcc accepts " + family_name(cxx.family) + " up to " +
           std::to_string(max);
}

std::optional<HostCompilerChoice> choose_host_compiler(
    const Version& cuda, const std::optional<CompilerId>& default_cxx,
    const std::function<std::optional<std::string>(const std::string&)>& find) {
    if (!default_cxx) return std::nullopt;
    auto why = host_compiler_mismatch(cuda, *default_cxx);
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

std::optional<HostCompilerChoice> pick_host_compiler(const fs::path& store_root, const Version& cuda,
                                                     const std::string& path) {
    // Only on a changed key is compat.toml parsed and a compiler started.
    auto cxx = platform::find_on_path("c++", path);
    if (!cxx) return std::nullopt;
    std::error_code ec;
    auto real = fs::canonical(fsx::from_utf8(*cxx), ec);
    if (ec) return std::nullopt;
    const auto mm = Version({cuda.major(), cuda.minor()}).str();
    // A compiler added to or removed from a PATH folder changes that folder's mtime.
    auto key = mm + "\n" + fsx::to_utf8(real) + "\n" + path_stamp(real);
    for (const auto& dir : str::split(path, ':'))
        if (!dir.empty()) key += "\n" + dir + "=" + path_stamp(fsx::from_utf8(dir));

    // The kept decision: {"key": ..., "choice": null | {"path", "reason"}}.
    const auto file = store_root / "cache" / "host_compiler.json";
    nlohmann::json kept = nlohmann::json::object();
    if (auto text = fsx::read_file(file, 1 << 20)) {
        auto j = nlohmann::json::parse(*text, nullptr, false);
        if (j.is_object()) kept = j;
    }
    if (auto it = kept.find(key); it != kept.end() && (it->is_null() || it->is_object())) {
        if (it->is_null()) return std::nullopt;
        try {
            return HostCompilerChoice{it->at("path").get<std::string>(), it->at("reason").get<std::string>()};
        } catch (const nlohmann::json::exception&) {
        }
    }

    std::optional<CompilerId> id;
    if (!host_compiler_rule(cuda)) return std::nullopt;
    auto pr = platform::run_process({fsx::to_utf8(real), "--version"}, platform::environment(),
                                    std::chrono::seconds(10));
    if (pr.started && pr.exit_code == 0) id = parse_compiler_version(pr.out);
    auto choice = choose_host_compiler(cuda, id, [&](const std::string& name) { return platform::find_on_path(name, path); });

    if (kept.size() > 32) kept = nlohmann::json::object();  // keys of old PATHs pile up: start again
    kept[key] = choice ? nlohmann::json{{"path", choice->path}, {"reason", choice->reason}} : nlohmann::json(nullptr);
    if (fsx::is_dir(store_root)) {
        fs::create_directories(file.parent_path(), ec);
        try {
            fsx::write_file_atomic(file, kept.dump() + "\n");
        } catch (const Error&) {
            // a store that cannot be written asks again next time
        }
    }
    return choice;
}

}  // namespace cudaenv
