// `export lmod` and `export tcl`: one modulefile per pair into a folder.
// Loading one applies the pair's intent; unloading takes exactly that back:
// a variable the pair sets or unsets gets its value from before the load
// again (Lmod and Environment Modules `pushenv`; for a variable unset, Lmod's
// pushenv(NAME, false) and, in Environment Modules, the value kept at load
// in __CUDAENV_MODULE_<NAME>). docs/frameworks.md says what each engine does
// with search-path entries that were there before.
#include <cstdio>
#include <sstream>

#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;

// `cudaenv use` keeps its own record of what it changed (for `deactivate`),
// and a module keeps Lmod's or Environment Modules': one of the two at a time.
constexpr const char* use_active =
    "cudaenv: `cudaenv use` is active in this shell and would not know what this module changes; "
    "run `cudaenv deactivate` first, then load the module";

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
            auto t = fsx::inspect_target(path);
            if (t.kind != fsx::TargetKind::absent && (t.kind != fsx::TargetKind::file || !written_by_us(t.path)))
                throw Error("'" + fsx::to_utf8(path) + "' exists and was not written by cudaenv; it was left as it was",
                            "move it away or export into another folder");
        }
        for (const auto& [path, text] : files) {
            fs::create_directories(path.parent_path(), ec);
            if (ec)
                throw Error("cannot create the folder '" + fsx::to_utf8(path.parent_path()) + "': " + ec.message(),
                            "pick a folder you can write with -o");
        }
        for (const auto& [path, text] : files) fsx::write_user_file(path, text);
    }
};

fs::path need_out(const Options& o, const char* format) {
    if (!o.out)
        throw UsageError(std::string("`export ") + format + "` writes a folder of modulefiles: name it with -o DIR",
                         std::string("e.g. cudaenv export ") + format + " --all -o ~/modulefiles");
    return *o.out;
}

// "2 modulefiles (cuda/11.8.89-cudnn8.9.7, cuda/12.4.131)".
std::string listing(const std::vector<PairVars>& pairs) {
    std::string names;
    for (const auto& p : pairs) names += (names.empty() ? "" : ", ") + ("cuda/" + module_version(p));
    return std::to_string(pairs.size()) + (pairs.size() == 1 ? " modulefile (" : " modulefiles (") + names + ")";
}

}  // namespace

std::string render_lmod(const PairVars& p, const Options&) {
    std::ostringstream f;
    f << "-- " << marker << " lmod`; re-running it rewrites this file.\n";
    f << "-- cudaenv pair " << p.spec << "\n";
    f << "whatis(" << lua_quote("Name: cuda") << ")\n";
    f << "whatis(" << lua_quote("Version: " + module_version(p)) << ")\n";
    f << "whatis(" << lua_quote("Description: " + describe(p) + "; cudaenv pair " + p.spec) << ")\n";
    f << "whatis(" << lua_quote("Check: " + check_line(p)) << ")\n";
    f << "help(" << lua_quote(describe(p) + ".\nSets what `cudaenv env " + p.spec + "` sets.\n" + check_line(p) + "\n") << ")\n";
    f << "family(\"cuda\")\n";
    f << "if (mode() == \"load\" and os.getenv(\"__CUDAENV_STATE\")) then LmodError(" << lua_quote(use_active)
      << ") end\n";
    for (const auto* e : p.intent()) {
        const auto name = lua_quote(e->name);
        if (e->op == EnvOp::prepend)
            for (auto it = e->prepended.rbegin(); it != e->prepended.rend(); ++it)
                f << "prepend_path(" << name << ", " << lua_quote(*it) << ")\n";
        // pushenv: unloading gives the variable its value from before the load back.
        else if (e->op == EnvOp::set) f << "pushenv(" << name << ", " << lua_quote(*e->value) << ")\n";
        else f << "pushenv(" << name << ", false)\n";
    }
    return f.str();
}

std::string write_lmod(const std::vector<PairVars>& pairs, const Options& o) {
    FolderPlan plan{need_out(o, "lmod"), {}};
    for (const auto& p : pairs) plan.files.emplace_back(plan.dir / "cuda" / (module_version(p) + ".lua"), render_lmod(p, o));
    // Lmod's own Lua form: Lmod reads .version files through a Tcl helper that
    // breaks on folder names with spaces.
    if (o.default_name)
        plan.files.emplace_back(plan.dir / "cuda" / ".modulerc.lua",
                                "-- " + std::string(marker) + " lmod --default`.\nmodule_version(" +
                                    lua_quote("cuda/" + *o.default_name) + ", \"default\")\n");
    plan.commit();
    say_wrote(listing(pairs), plan.dir);
    return {};
}

std::string render_tcl(const PairVars& p, const Options&) {
    std::ostringstream f;
    f << "#%Module1.0\n";
    f << "# " << marker << " tcl`; re-running it rewrites this file.\n";
    f << "# cudaenv pair " << p.spec << "\n";
    f << "module-whatis " << tcl_quote("cuda " + module_version(p) + ": " + describe(p) + "; " + check_line(p)) << "\n";
    f << "proc ModulesHelp {} {\n    puts stderr "
      << tcl_quote(describe(p) + ".\nSets what `cudaenv env " + p.spec + "` sets.\n" + check_line(p)) << "\n}\n";
    f << "conflict cuda\n";
    f << "if {[module-info mode load] && [info exists ::env(__CUDAENV_STATE)]} {\n    reportError "
      << tcl_quote(use_active) << "\n    break\n}\n";
    for (const auto* e : p.intent()) {
        const auto name = tcl_quote(e->name);
        if (e->op == EnvOp::prepend) {
            for (auto it = e->prepended.rbegin(); it != e->prepended.rend(); ++it) {
                // Lmod's Tcl reader (tcl2lua) writes a prepend-path value into a
                // Lua "..." literal as it is: a quote or backslash is given to
                // it escaped for Lua, Environment Modules gets the value.
                auto lua = lua_quote(*it);
                if (lua.substr(1, lua.size() - 2) == *it) {
                    f << "prepend-path " << name << " " << tcl_quote(*it) << "\n";
                    continue;
                }
                f << "if {[info exists ModuleTool] && $ModuleTool eq \"Lmod\"} {\n    prepend-path " << name << " "
                  << tcl_quote(lua.substr(1, lua.size() - 2)) << "\n} else {\n    prepend-path " << name << " "
                  << tcl_quote(*it) << "\n}\n";
            }
        } else if (e->op == EnvOp::set) {
            f << "pushenv " << name << " " << tcl_quote(*e->value) << "\n";
        } else {
            // Environment Modules has no pushenv that unsets: the value from
            // before the load is kept beside it and set again on unload.
            const auto kept = tcl_quote("__CUDAENV_MODULE_" + e->name);
            f << "if {[module-info mode load] && [info exists ::env(" << e->name << ")]} {\n    setenv " << kept
              << " $::env(" << e->name << ")\n}\n"
              << "if {[module-info mode unload] && [info exists ::env(__CUDAENV_MODULE_" << e->name << ")]} {\n"
              << "    unsetenv " << name << " $::env(__CUDAENV_MODULE_" << e->name << ")\n"
              << "    unsetenv --unset-on-unload " << kept << "\n} else {\n    unsetenv " << name << "\n}\n";
        }
    }
    return f.str();
}

std::string write_tcl(const std::vector<PairVars>& pairs, const Options& o) {
    FolderPlan plan{need_out(o, "tcl"), {}};
    for (const auto& p : pairs) plan.files.emplace_back(plan.dir / "cuda" / module_version(p), render_tcl(p, o));
    if (o.default_name)
        plan.files.emplace_back(plan.dir / "cuda" / ".version",
                                "#%Module1.0\n# " + std::string(marker) + " tcl --default`.\nset ModulesVersion " +
                                    tcl_quote(*o.default_name) + "\n");
    plan.commit();
    say_wrote(listing(pairs), plan.dir);
    return {};
}

std::optional<std::string> loaded_cudaenv_module(const EnvReader& env) {
    auto files = env("_LMFILES_");
    if (!files || files->empty()) return std::nullopt;
    const auto names = str::split(env("LOADEDMODULES").value_or(""), ':');
    const auto paths = str::split(*files, ':');
    for (size_t i = 0; i < paths.size(); ++i)
        if (!paths[i].empty() && written_by_us(fsx::from_utf8(paths[i])))
            return i < names.size() && !names[i].empty() ? names[i] : paths[i];
    return std::nullopt;
}

namespace {

// A "..." literal: a backslash before each of `special`, \n for a line
// break, other control characters as `control` (a printf format of the byte).
std::string backslash_quote(const std::string& s, std::string_view special, const char* control) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (special.find(static_cast<char>(c)) != std::string_view::npos) {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, control, static_cast<unsigned>(c));
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

}  // namespace

std::string lua_quote(const std::string& s) { return backslash_quote(s, "\\\"", "\\%03u"); }

// Inside "...", Tcl substitutes $, [ and \; a backslash before any of them
// (and before the braces and quotes) makes it literal. Every character beyond
// ASCII is written \uXXXX: Environment Modules reads a modulefile as UTF-8,
// Lmod's Tcl as Latin-1 (and hands Lua the UTF-8 of that), and both read the
// escape as the one character (issue 40 N15). A character beyond U+FFFF
// becomes its surrogate pair, which only Environment Modules joins again
// (tcl_misread refuses it in a value); bytes that are not UTF-8 are taken as
// Latin-1 (only in descriptive text: tcl_misread refuses them in a value).
std::string tcl_quote(const std::string& s) {
    auto cps = str::utf8_code_points(s);
    if (!cps) {
        cps.emplace();
        for (unsigned char b : s) cps->push_back(b);
    }
    std::string ascii, out = "\"";
    auto flush = [&] {
        if (ascii.empty()) return;
        auto q = backslash_quote(ascii, "\\\"$[]{};", "\\x%02x");
        out += q.substr(1, q.size() - 2);
        ascii.clear();
    };
    for (char32_t c : *cps) {
        if (c < 0x80) {
            ascii += static_cast<char>(c);
            continue;
        }
        flush();
        auto unit = [&](unsigned u) {
            char buf[16];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
        };
        if (c > 0xFFFF) {
            const auto v = static_cast<unsigned>(c) - 0x10000u;
            unit(0xD800u + (v >> 10));
            unit(0xDC00u + (v & 0x3FFu));
        } else {
            unit(static_cast<unsigned>(c));
        }
    }
    flush();
    return out + "\"";
}

std::optional<std::string> tcl_misread(std::string_view value, PathStyle) {
    // What Lmod 8.6 and Environment Modules 5 were seen to read otherwise
    // (tests/modules/test_tcl_names.py loads every other name in both).
    auto cps = str::utf8_code_points(value);
    if (!cps) return "bytes that are not UTF-8, which Environment Modules writes back as other bytes";
    for (char32_t c : *cps)
        if (c > 0xFFFF) return "a character beyond U+FFFF, which Lmod's Tcl reader cannot hand on";
    if (value.starts_with(' ') || value.ends_with(' '))
        return "a space at its start or end, which Lmod's Tcl reader drops";
    if (value.find("]===]") != std::string_view::npos)
        return "']===]', which ends a text in what Lmod makes of a Tcl modulefile";
    return std::nullopt;
}

}  // namespace cudaenv::exporting
