#include "export/formats.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;

// Every file export writes carries this, so a later export knows it may
// replace the file and leaves every other file alone.
constexpr const char* marker = "cudaenv export: written by `cudaenv export";

bool written_by_us(const fs::path& p) {
    auto text = fsx::read_file(p, 1u << 20);
    return text && text->substr(0, 512).find(marker) != std::string::npos;
}

std::string describe(const PairVars& p) {
    std::string s = "CUDA " + p.cuda_version + " (" + p.cuda_root + ")";
    if (!p.cudnn_version.empty())
        s += " with cuDNN " + p.cudnn_version + " (" + p.get("CUDNN_PATH").value_or(fsx::to_utf8(p.pair.cudnn->path)) + ")";
    else
        s += " without cuDNN";
    return s;
}

std::string check_line(const PairVars& p) {
    return "last `cudaenv check`: " + p.last_check.value_or("never checked");
}

// A folder of modulefiles: refuses a file where the folder should be and
// any existing file export did not write, before writing anything.
struct FolderPlan {
    fs::path dir;
    std::vector<std::pair<fs::path, std::string>> files;

    void commit() const {
        std::error_code ec;
        if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
            throw Error("'" + fsx::to_utf8(dir) + "' is a file; modulefiles are written into a folder",
                        "name a folder with -o, e.g. -o ~/modulefiles");
        for (const auto& [path, text] : files) {
            if (fs::exists(path, ec) && (!fs::is_regular_file(path, ec) || !written_by_us(path)))
                throw Error("'" + fsx::to_utf8(path) + "' exists and was not written by cudaenv; it was left as it was",
                            "move it away or export into another folder");
        }
        for (const auto& [path, text] : files) {
            fs::create_directories(path.parent_path(), ec);
            if (ec)
                throw Error("cannot create the folder '" + fsx::to_utf8(path.parent_path()) + "': " + ec.message(),
                            "pick a folder you can write with -o");
        }
        for (const auto& [path, text] : files) fsx::write_file_atomic(path, text);
    }
};

fs::path need_out(const Options& o, const char* format) {
    if (!o.out)
        throw UsageError(std::string("`export ") + format + "` writes a folder of modulefiles: name it with -o DIR",
                         std::string("e.g. cudaenv export ") + format + " --all -o ~/modulefiles");
    return *o.out;
}

std::string write_lmod(const std::vector<PairVars>& pairs, const Options& o) {
    FolderPlan plan{need_out(o, "lmod"), {}};
    for (const auto& p : pairs) {
        std::ostringstream f;
        f << "-- " << marker << " lmod`; re-running it rewrites this file.\n";
        f << "-- cudaenv pair " << p.spec << "\n";
        f << "whatis(" << lua_quote("Name: cuda") << ")\n";
        f << "whatis(" << lua_quote("Version: " + module_version(p)) << ")\n";
        f << "whatis(" << lua_quote("Description: " + describe(p) + "; cudaenv pair " + p.spec) << ")\n";
        f << "whatis(" << lua_quote("Check: " + check_line(p)) << ")\n";
        f << "help(" << lua_quote(describe(p) + ".\nSets what `cudaenv env " + p.spec + "` sets.\n" + check_line(p) + "\n") << ")\n";
        f << "family(\"cuda\")\n";
        for (const auto& [name, entries] : p.prepend)
            for (auto it = entries.rbegin(); it != entries.rend(); ++it)
                f << "prepend_path(" << lua_quote(name) << ", " << lua_quote(*it) << ")\n";
        for (const auto& [name, value] : p.set) f << "setenv(" << lua_quote(name) << ", " << lua_quote(value) << ")\n";
        for (const auto& name : p.unset) f << "unsetenv(" << lua_quote(name) << ")\n";
        plan.files.emplace_back(plan.dir / "cuda" / (module_version(p) + ".lua"), f.str());
    }
    // Lmod's own Lua form: Lmod reads .version files through a Tcl helper that
    // breaks on folder names with spaces.
    if (o.default_name)
        plan.files.emplace_back(plan.dir / "cuda" / ".modulerc.lua",
                                "-- " + std::string(marker) + " lmod --default`.\nmodule_version(" +
                                    lua_quote("cuda/" + *o.default_name) + ", \"default\")\n");
    plan.commit();
    return {};
}

std::string write_tcl(const std::vector<PairVars>& pairs, const Options& o) {
    FolderPlan plan{need_out(o, "tcl"), {}};
    for (const auto& p : pairs) {
        std::ostringstream f;
        f << "#%Module1.0\n";
        f << "# " << marker << " tcl`; re-running it rewrites this file.\n";
        f << "# cudaenv pair " << p.spec << "\n";
        f << "module-whatis " << tcl_quote("cuda " + module_version(p) + ": " + describe(p) + "; " + check_line(p)) << "\n";
        f << "proc ModulesHelp {} {\n    puts stderr "
          << tcl_quote(describe(p) + ".\nSets what `cudaenv env " + p.spec + "` sets.\n" + check_line(p)) << "\n}\n";
        f << "conflict cuda\n";
        for (const auto& [name, entries] : p.prepend)
            for (auto it = entries.rbegin(); it != entries.rend(); ++it)
                f << "prepend-path " << tcl_quote(name) << " " << tcl_quote(*it) << "\n";
        for (const auto& [name, value] : p.set) f << "setenv " << tcl_quote(name) << " " << tcl_quote(value) << "\n";
        for (const auto& name : p.unset) f << "unsetenv " << tcl_quote(name) << "\n";
        plan.files.emplace_back(plan.dir / "cuda" / module_version(p), f.str());
    }
    if (o.default_name)
        plan.files.emplace_back(plan.dir / "cuda" / ".version",
                                "#%Module1.0\n# " + std::string(marker) + " tcl --default`.\nset ModulesVersion " +
                                    tcl_quote(*o.default_name) + "\n");
    plan.commit();
    return {};
}

// ---- CMake presets -------------------------------------------------------

using ojson = nlohmann::ordered_json;

std::string preset_name(const PairVars& p) { return "cudaenv-" + module_version(p); }

bool is_ours(const ojson& preset) {
    return preset.is_object() && preset.contains("vendor") && preset["vendor"].is_object() &&
           preset["vendor"].contains("cudaenv");
}

void refuse_macros(const std::string& value, const std::string& what) {
    // CMake expands ${...}, $env{...}, $penv{...} and $vendor{...} in preset
    // strings and has no way to escape them.
    for (const char* m : {"${", "$env{", "$penv{", "$vendor{"})
        if (value.find(m) != std::string::npos)
            throw Error(what + " contains '" + m + "', which CMake presets would expand and cannot escape",
                        "move the folder to a name without it");
}

ojson make_preset(const PairVars& p, PathStyle style) {
    ojson env = ojson::object();
    const std::string sep(1, list_separator(style));
    for (const auto& [name, entries] : p.prepend) {
        std::string v;
        for (const auto& e : entries) v += e + sep;
        v += "$penv{" + name + "}";
        env[name] = v;
    }
    for (const auto& [name, value] : p.set) env[name] = value;
    for (const auto& name : p.unset) env[name] = nullptr;  // null: unset in presets
    auto nvcc = p.get("CUDACXX").value_or(
        fsx::to_utf8(fsx::from_utf8(p.cuda_root) / "bin" / (style == PathStyle::windows ? "nvcc.exe" : "nvcc")));
    for (const auto& [k, v] : env.items())
        if (v.is_string()) refuse_macros(v.get<std::string>().substr(0, v.get<std::string>().rfind("$penv{")), "the value of " + k);
    refuse_macros(nvcc, "the nvcc path");
    ojson preset;
    preset["name"] = preset_name(p);
    preset["displayName"] = describe(p) + " (cudaenv)";
    preset["description"] = std::string(marker) + " cmake-presets`; cudaenv pair " + p.spec + "; " + check_line(p);
    preset["binaryDir"] = "${sourceDir}/build/" + preset_name(p);
    preset["cacheVariables"] = {{"CMAKE_CUDA_COMPILER", nvcc}, {"CUDAToolkit_ROOT", p.cuda_root}};
    preset["environment"] = env;
    preset["vendor"] = {{"cudaenv", {{"spec", p.spec}}}};
    return preset;
}

std::string write_presets(const std::vector<PairVars>& pairs, const Options& o) {
    fs::path file = o.out ? *o.out : o.cwd / "CMakeUserPresets.json";
    std::error_code ec;
    if (fs::is_directory(file, ec)) file /= "CMakeUserPresets.json";
    const auto where = fsx::to_utf8(file);
    ojson doc = ojson::object();
    int version = 3;  // the first with CMakeUserPresets.json, $penv{} and an optional generator
    // A user file must not be older than the project's CMakePresets.json.
    if (auto project = fsx::read_file(file.parent_path() / "CMakePresets.json")) {
        auto pj = ojson::parse(*project, nullptr, false);
        if (pj.is_object() && pj.contains("version") && pj["version"].is_number_integer())
            version = std::max(version, pj["version"].get<int>());
    }
    if (fs::exists(file, ec)) {
        auto text = fsx::read_file(file);
        if (!text) throw Error("cannot read '" + where + "'");
        try {
            doc = ojson::parse(*text);
        } catch (const ojson::parse_error& e) {
            throw Error("'" + where + "' is not valid JSON (" + std::string(e.what()) + "); it was left as it was",
                        "fix or remove the file, then export again");
        }
        if (!doc.is_object() || (doc.contains("configurePresets") && !doc["configurePresets"].is_array()) ||
            (doc.contains("version") && !doc["version"].is_number_integer()))
            throw Error("'" + where + "' is not a CMake presets file (an object with a configurePresets list); it was left as it was",
                        "fix or remove the file, then export again");
    }
    if (!doc.contains("version") || doc["version"].get<int>() < version) doc["version"] = version;
    auto& list = doc["configurePresets"];
    if (list.is_null()) list = ojson::array();
    for (const auto& p : pairs) {
        auto preset = make_preset(p, o.style);
        bool placed = false;
        for (auto& existing : list) {
            if (!existing.is_object() || existing.value("name", "") != preset["name"]) continue;
            if (!is_ours(existing))
                throw Error("'" + where + "' already has a preset named '" + preset["name"].get<std::string>() +
                                "' that cudaenv did not write; it was left as it was",
                            "rename that preset, then export again");
            existing = preset;
            placed = true;
        }
        if (!placed) list.push_back(preset);
    }
    fsx::write_file_atomic(file, doc.dump(2) + "\n");
    std::string names;
    for (const auto& p : pairs) names += (names.empty() ? "" : ", ") + preset_name(p);
    std::fprintf(stderr, "cudaenv: wrote configure preset %s into %s\n", names.c_str(), where.c_str());
    return {};
}

// ---- dotenv and GitHub Actions ------------------------------------------

const char* block_begin = "# >>> cudaenv export: written by `cudaenv export dotenv`; re-running it rewrites this block >>>";
const char* block_end = "# <<< cudaenv export <<<";

std::string write_dotenv(const std::vector<PairVars>& pairs, const Options& o) {
    if (pairs.size() != 1) throw UsageError("`export dotenv` writes one pair", "name one spec");
    const auto& p = pairs.front();
    std::string block = std::string(block_begin) + "\n# cudaenv pair " + p.spec + "\n";
    for (const auto& [name, value] : p.here) block += name + "=" + dotenv_value(value) + "\n";
    block += std::string(block_end) + "\n";
    if (!o.out) return block;
    // An existing file keeps every line outside cudaenv's block.
    std::string text;
    std::error_code ec;
    if (fs::is_directory(*o.out, ec))
        throw Error("'" + fsx::to_utf8(*o.out) + "' is a folder; dotenv writes a file", "name a file with -o, e.g. -o .env");
    if (auto old = fsx::read_file(*o.out)) {
        auto b = old->find(block_begin);
        auto e = b == std::string::npos ? b : old->find(block_end, b);
        if (b != std::string::npos && e != std::string::npos) {
            auto after = old->find('\n', e);
            text = old->substr(0, b) + block + (after == std::string::npos ? "" : old->substr(after + 1));
        } else {
            text = *old + (old->empty() || old->back() == '\n' ? "" : "\n") + block;
        }
    } else {
        text = block;
    }
    fsx::write_file_atomic(*o.out, text);
    return {};
}

std::string write_github_env(const std::vector<PairVars>& pairs, const Options& o) {
    if (pairs.size() != 1) throw UsageError("`export github-env` writes one pair", "name one spec");
    const auto& p = pairs.front();
    // NAME<<DELIMITER lines, as GitHub documents for values that may hold
    // line breaks; the delimiter is random and checked against every value.
    std::random_device rd;
    std::string delim;
    auto clashes = [&](const std::string& d) {
        return std::any_of(p.here.begin(), p.here.end(), [&](const auto& kv) { return kv.second.find(d) != std::string::npos; });
    };
    do {
        char buf[32];
        std::snprintf(buf, sizeof buf, "ghadelimiter_%08x%08x", rd(), rd());
        delim = buf;
    } while (clashes(delim));
    std::string out;
    for (const auto& [name, value] : p.here) out += name + "<<" + delim + "\n" + value + "\n" + delim + "\n";
    if (!o.out) return out;
    // $GITHUB_ENV is shared by every step: append, never replace.
    std::error_code ec;
    if (fs::is_directory(*o.out, ec))
        throw Error("'" + fsx::to_utf8(*o.out) + "' is a folder; github-env appends to a file", "use -o \"$GITHUB_ENV\"");
    auto old = fsx::read_file(*o.out).value_or("");
    fsx::write_file_atomic(*o.out, old + (old.empty() || old.back() == '\n' ? "" : "\n") + out);
    return {};
}

}  // namespace

std::string module_version(const PairVars& p) {
    return p.cuda_version + (p.cudnn_version.empty() ? "" : "-cudnn" + p.cudnn_version);
}

std::string lua_quote(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '"': out += "\\\""; break;
        case '\n': out += "\\n"; break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\%03u", c);
                out += buf;
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    return out + "\"";
}

std::string tcl_quote(const std::string& s) {
    // Inside "...", Tcl substitutes $, [ and \; a backslash before any of
    // them (and before the braces and quotes) makes it literal.
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '\\' || c == '"' || c == '$' || c == '[' || c == ']' || c == '{' || c == '}' || c == ';') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string dotenv_value(const std::string& s) {
    // Plain values are written as they are: docker --env-file, systemd's
    // EnvironmentFile and VS Code's envFile all read them alike. A value
    // with quotes, backslashes, $, #, backticks or edge spaces is written in
    // double quotes with \ and " escaped, as systemd and VS Code unquote it
    // (docker would keep the quotes: docs/frameworks.md says so).
    bool plain = !s.empty() && s.front() != ' ' && s.back() != ' ' && s.front() != '\t' && s.back() != '\t';
    for (char c : s)
        if (c == '"' || c == '\'' || c == '\\' || c == '$' || c == '#' || c == '`') plain = false;
    if (plain) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

const std::vector<Format>& formats() {
    static const std::vector<Format> table = {
        {"cmake-presets", "a configure preset merged into CMakeUserPresets.json (CMake, VS Code, Visual Studio, CLion)",
         Target::presets_file, Carries::printable, Writes::pair,
         "CMake keeps cache variables in CMakeCache.txt one per line", write_presets},
        {"dotenv", "KEY=value lines (VS Code python.envFile, docker --env-file, systemd EnvironmentFile)",
         Target::stream_or_file, Carries::no_line_breaks, Writes::whole_environment,
         "env-file readers end a value at a line break", write_dotenv},
        {"github-env", "NAME<<DELIMITER blocks for $GITHUB_ENV (appended with -o)", Target::stream_or_file,
         Carries::no_line_breaks, Writes::whole_environment,
         "GitHub's runner reads $GITHUB_ENV line by line and joins a value's lines with its own line ending",
         write_github_env},
        {"lmod", "one Lua modulefile per pair into a folder (Lmod)", Target::folder, Carries::printable, Writes::pair,
         "Lmod prints values into the shell code `module` evaluates, where a line break starts a new command",
         write_lmod},
        {"tcl", "one Tcl modulefile per pair into a folder (Environment Modules, Lmod)", Target::folder,
         Carries::printable, Writes::pair,
         "Environment Modules prints values into the shell code `module` evaluates, where a line break starts a new command",
         write_tcl},
    };
    return table;
}

const Format* find_format(const std::string& name) {
    for (const auto& f : formats())
        if (name == f.name) return &f;
    return nullptr;
}

namespace {

// Names what holds the character: the pair's own folder when it is there,
// else the variable (a PATH entry of the caller's, for the formats that
// write the whole environment).
[[noreturn]] void refuse_value(const Format& f, const PairVars& p, const std::string& name, const std::string& value) {
    const bool breaks = str::has_control(value, true);
    const std::string what = breaks ? "a line break" : "a control character";
    std::string holder = "the value of " + name + " '" + str::visible(value) + "'";
    std::string hint = "remove that entry from " + name + " before exporting";
    for (const auto* dir : {&p.pair.toolkit.path, p.pair.cudnn ? &p.pair.cudnn->path : nullptr}) {
        if (!dir) continue;
        auto text = fsx::to_utf8(*dir);
        if (str::has_control(text, f.carries == Carries::no_line_breaks)) {
            holder = std::string(dir == &p.pair.toolkit.path ? "the toolkit folder '" : "the cuDNN folder '") +
                     str::visible(text) + "'";
            hint = "move it to a folder whose name has no control characters, then `cudaenv add` it there";
            break;
        }
    }
    throw Error("cannot export " + p.spec + " as " + f.name + ": " + holder + " holds " + what + ", and " +
                    f.consumer_reads + "; nothing was written",
                hint);
}

}  // namespace

std::string write(const Format& f, const std::vector<PairVars>& pairs, const Options& opts) {
    const bool breaks_only = f.carries == Carries::no_line_breaks;
    for (const auto& p : pairs) {
        auto check = [&](const std::string& name, const std::string& value) {
            if (str::has_control(value, breaks_only)) refuse_value(f, p, name, value);
        };
        if (f.writes == Writes::whole_environment) {
            for (const auto& [name, value] : p.here) check(name, value);
            continue;
        }
        for (const auto& [name, value] : p.set) check(name, value);
        for (const auto& [name, entries] : p.prepend)
            for (const auto& e : entries) check(name, e);
    }
    return f.write(pairs, opts);
}

}  // namespace cudaenv::exporting
