#include "export/formats.hpp"

#include <cstdio>

#include "export/format_parts.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::exporting {

bool written_by_us(const std::filesystem::path& p) {
    // `use` asks this of every loaded modulefile: one cudaenv writes is a few
    // KiB, and a larger file is told apart by its size, without reading it.
    auto text = fsx::read_file(p, 64u << 10);
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

std::string check_line(const PairVars& p) { return "last `cudaenv check`: " + p.last_check.value_or("never checked"); }

void say_wrote(const std::string& what, const std::filesystem::path& where) {
    std::fprintf(stderr, "cudaenv: wrote %s into %s\n", what.c_str(), fsx::to_utf8(where).c_str());
}

std::string module_version(const PairVars& p) {
    return p.cuda_version + (p.cudnn_version.empty() ? "" : "-cudnn" + p.cudnn_version);
}

const std::vector<Format>& formats() {
    static const std::vector<Format> table = {
        {"cdi",
         "a CDI spec: each pair a device (cudaenv.dev/pair=SPEC, '+' as '_') that mounts its folders read-only "
         "and sets its variables (Podman, containerd, CRI-O, Docker)",
         Target::cdi_folder, Carries::utf8, Writes::container,
         "a CDI spec is JSON, which holds UTF-8 text only", nullptr, render_cdi_device, write_cdi},
        {"cmake-presets",
         "configure, build and test presets merged into CMakeUserPresets.json (CMake, VS Code, Visual Studio, CLion)",
         Target::presets_file, Carries::printable, Writes::pair_whole_lists,
         "CMake keeps cache variables in CMakeCache.txt one per line", nullptr, render_preset, write_presets},
        {"dockerfile",
         "a Dockerfile and its build context that install cudaenv.lock's pair with `cudaenv sync --frozen` from "
         "a mirror mounted at build time, on any glibc base (--base); reproducible",
         Target::project_lock, Carries::printable, Writes::pair, "", nullptr, nullptr, write_dockerfile},
        {"dotenv", "KEY=value lines (VS Code python.envFile, docker --env-file, systemd EnvironmentFile)",
         Target::stream_or_file, Carries::no_line_breaks, Writes::whole_environment,
         "env-file readers end a value at a line break", dotenv_misread, render_dotenv, write_dotenv},
        {"github-env", "NAME<<DELIMITER blocks for $GITHUB_ENV (appended with -o)", Target::stream_or_file,
         Carries::no_line_breaks, Writes::whole_environment,
         "GitHub's runner reads $GITHUB_ENV line by line and joins a value's lines with its own line ending", nullptr,
         render_github_env, write_github_env},
        {"lmod", "one Lua modulefile per pair into a folder (Lmod)", Target::folder, Carries::printable, Writes::pair,
         "Lmod prints values into the shell code `module` evaluates, where a line break starts a new command",
         nullptr, render_lmod, write_lmod},
        {"msbuild",
         "Directory.Build.props that points CudaToolkitCustomDir at the pair (Visual Studio, MSBuild), merged",
         Target::presets_file, Carries::printable, Writes::pair,
         "MSBuild reads Directory.Build.props as XML, which cannot hold a control character", msbuild_misread,
         render_msbuild, write_msbuild},
        {"tcl", "one Tcl modulefile per pair into a folder (Environment Modules)", Target::folder, Carries::printable,
         Writes::pair,
         "Environment Modules prints values into the shell code `module` evaluates, where a line break starts a new command",
         tcl_misread, render_tcl, write_tcl},
    };
    return table;
}

const Format* find_format(const std::string& name) {
    for (const auto& f : formats())
        if (name == f.name) return &f;
    return nullptr;
}

namespace {

// Why `f`'s consumer cannot take `value`, or nullopt.
std::optional<std::string> unfit(const Format& f, const std::string& value, PathStyle style) {
    if (f.carries == Carries::utf8) {
        if (!str::utf8_code_points(value)) return std::string("bytes that are not UTF-8, and ") + f.consumer_reads;
        return std::nullopt;
    }
    const bool breaks_only = f.carries == Carries::no_line_breaks;
    if (str::has_control(value, breaks_only))
        return std::string(str::has_control(value, true) ? "a line break" : "a control character") + ", and " +
               f.consumer_reads;
    if (f.misread) return f.misread(value, style);
    return std::nullopt;
}

// Names what holds the value: the pair's own folder when it is there, else
// the variable (a PATH entry of the caller's, for the formats that write the
// whole environment).
[[noreturn]] void refuse_value(const Format& f, const PairVars& p, const std::string& name, const std::string& value,
                               const std::string& why, PathStyle style) {
    std::string holder = "the value of " + name + " '" + str::visible(value) + "'";
    std::string hint = "remove that entry from " + name + " before exporting";
    for (const auto* dir : {&p.pair.toolkit.path, p.pair.cudnn ? &p.pair.cudnn->path : nullptr}) {
        if (!dir) continue;
        auto text = fsx::to_utf8(*dir);
        if (unfit(f, text, style) == why) {
            holder = std::string(dir == &p.pair.toolkit.path ? "the toolkit folder '" : "the cuDNN folder '") +
                     str::visible(text) + "'";
            hint = "move it to a folder whose name has none, then `cudaenv add` it there";
            break;
        }
    }
    throw Error("cannot export " + p.spec + " as " + f.name + ": " + holder + " holds " + why + "; nothing was written",
                hint);
}

}  // namespace

std::string write(const Format& f, const std::vector<PairVars>& pairs, const Options& opts) {
    for (const auto& p : pairs) {
        auto check = [&](const std::string& name, const std::string& value) {
            if (auto why = unfit(f, value, opts.style)) refuse_value(f, p, name, value, *why, opts.style);
        };
        for (const auto* e : p.intent()) {
            if (e->op == EnvOp::prepend && f.writes == Writes::pair)
                for (const auto& entry : e->prepended) check(e->name, entry);
            else if (e->value)
                check(e->name, *e->value);
        }
    }
    return f.write(pairs, opts);
}

}  // namespace cudaenv::exporting
