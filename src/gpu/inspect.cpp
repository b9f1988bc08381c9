#include "gpu/inspect.hpp"

#include <nlohmann/json.hpp>

#include "core/cudalibs.hpp"
#include "util/binary_file.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv::gpu {

namespace fs = std::filesystem;

namespace {

constexpr int max_depth = 6;
constexpr size_t max_files = 20000;

bool looks_binary(const fs::path& p) {
    BinaryFile f(p);
    char m[4] = {};
    return f.read(0, m, 4) && ((m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F') || (m[0] == 'M' && m[1] == 'Z'));
}

// A library by its name (libx.so, libx.so.12, x.dll): listed even when it is
// no ELF or PE file, so the report says so rather than leaving it out.
bool named_like_a_library(const fs::path& p) { return cudalibs::is_library_file(fsx::to_utf8(p.filename())); }

std::string runs_text(const FileCode& f, const Machine& m) {
    if (!f.problem.empty()) return "? (" + f.problem + ")";
    if (!f.code.has_kernels()) return "- (" + judge(f.code, {}).why + ")";
    if (!m.known()) return "?";
    std::vector<std::string> parts;
    for (const auto& g : m.gpus) {
        auto v = judge(f.code, g.arch);
        parts.push_back((m.gpus.size() > 1 ? m.label(g) + ": " : "") + runs_name(v.runs) + " (" + v.why + ")");
    }
    return str::join(parts, "; ");
}

std::string or_dash(const std::string& s) { return s.empty() ? "-" : s; }

}  // namespace

Inspection inspect_path(const fs::path& path, CodeCache& cache, const Machine&) {
    Inspection in;
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        in.files.push_back({path, false, cache.file(path)});
        in.problems += !in.files.back().file.problem.empty();
        return in;
    }
    std::vector<fs::path> found;
    fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
    for (; !ec && it != end && found.size() < max_files; it.increment(ec)) {
        if (it.depth() >= max_depth) it.disable_recursion_pending();
        std::error_code e2;
        if (it->is_symlink(e2) || !it->is_regular_file(e2)) continue;
        if (looks_binary(it->path()) || named_like_a_library(it->path())) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    for (const auto& f : found) {
        in.files.push_back({f, false, cache.file(f)});
        in.problems += !in.files.back().file.problem.empty();
    }
    return in;
}

Inspection inspect_pair(const DetectedPair& pair, const std::string& spec, CodeCache& cache, const Machine& m) {
    Inspection in;
    in.pair_spec = spec;
    in.files = pair_libraries(pair, cache, Scan::read);
    for (const auto& f : in.files) in.problems += !f.file.problem.empty();
    std::optional<Version> cudnn;
    if (pair.cudnn) cudnn = pair.cudnn->version;
    in.pair = judge_pair(pair.toolkit.version, cudnn, in.files, m, TableUse::compare, nullptr, pair.toolkit.root);
    return in;
}

std::string machine_line(const Machine& m) {
    std::string out;
    if (m.known()) {
        std::vector<std::string> gpus;
        for (const auto& g : m.gpus) gpus.push_back(m.label(g));
        out = str::join(gpus, ", ") + (m.gpu_override ? " (" + m.gpu_source + ")" : "");
    } else {
        out = "no GPU known" + (m.gpu_problem.empty() ? std::string() : " (" + m.gpu_problem + ")");
    }
    if (!m.driver.empty())
        out += "; driver " + m.driver + " (" + m.driver_source + ")" + (m.driver_cuda.empty() ? "" : ", CUDA " + m.driver_cuda);
    else
        out += "; no NVIDIA driver found";
    return "machine: " + out;
}

std::vector<std::vector<std::string>> inspection_rows(const Inspection& in, const Machine& m) {
    std::vector<std::vector<std::string>> rows;
    for (const auto& f : in.files)
        rows.push_back({in.pair_spec.empty() ? fsx::to_utf8(f.path) : fsx::to_utf8(f.path.filename()),
                        or_dash(sass_list(f.file.code)), or_dash(ptx_list(f.file.code)), runs_text(f.file, m)});
    return rows;
}

std::vector<std::string> inspection_footer(const Inspection& in, const Machine& m) {
    std::vector<std::string> out;
    if (in.files.empty()) out.push_back("no ELF or PE binaries found");
    if (in.pair) {
        out.push_back(in.pair_spec + ": " + in.pair->line(m));
        for (const auto& g : in.pair->gpus)
            if (!g.note.empty()) out.push_back("note: " + g.note);
    }
    if (auto note = m.override_note(); !note.empty()) out.push_back("(" + note + ")");
    return out;
}

nlohmann::json machine_json(const Machine& m) {
    auto gpus = nlohmann::json::array();
    for (const auto& g : m.gpus)
        gpus.push_back({{"index", g.index}, {"name", g.name}, {"arch", g.arch.sass_name()}, {"compute_capability", g.arch.cc()}});
    return {{"gpus", gpus},
            {"gpu_source", m.gpu_source},
            {"gpu_problem", m.gpu_problem},
            {"driver", m.driver},
            {"driver_source", m.driver_source},
            {"driver_cuda", m.driver_cuda},
            {"override", m.gpu_override || m.driver_override},
            {"override_note", m.override_note()}};
}

nlohmann::json inspection_json(const Inspection& in, const Machine& m) {
    auto files = nlohmann::json::array();
    for (const auto& f : in.files) {
        auto counts = [](const std::map<Arch, int>& archs, bool ptx) {
            auto j = nlohmann::json::object();
            for (const auto& [a, n] : archs) j[ptx ? a.ptx_name() : a.sass_name()] = n;
            return j;
        };
        auto verdicts = nlohmann::json::array();
        if (f.file.problem.empty() && !f.file.code.empty())
            for (const auto& g : m.gpus) {
                auto v = judge(f.file.code, g.arch);
                verdicts.push_back({{"gpu", g.arch.sass_name()}, {"runs", runs_name(v.runs)}, {"why", v.why}});
            }
        files.push_back({{"path", fsx::to_utf8(f.path)},
                         // A file that is neither is reported as such (its `problem` says why), never dropped.
                         {"format", f.file.format == Format::elf ? "elf" : f.file.format == Format::pe ? "pe" : "other"},
                         {"sass", counts(f.file.code.sass, false)},
                         {"ptx", counts(f.file.code.ptx, true)},
                         {"ptx_isa", f.file.code.ptx_isa ? std::to_string(f.file.code.ptx_isa / 10) + "." +
                                                               std::to_string(f.file.code.ptx_isa % 10)
                                                         : ""},
                         {"fatbins", f.file.code.fatbins},
                         {"compressed_entries", f.file.code.compressed},
                         // Of `sass`, the entries whose cubin has no code (a stub: no kernel to run).
                         {"sass_without_kernels", counts(f.file.code.kernel_less, false)},
                         // Of the above, what lies in data sections (cuobjdump lists the rest).
                         {"in_data_sections", {{"fatbins", f.file.embedded.fatbins},
                                               {"sass", counts(f.file.embedded.sass, false)},
                                               {"ptx", counts(f.file.embedded.ptx, true)}}},
                         {"problem", f.file.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.file.problem)},
                         {"runs", verdicts}});
    }
    nlohmann::json out{{"machine", machine_json(m)}, {"files", files}};
    if (in.pair) {
        auto gpus = nlohmann::json::array();
        for (const auto& g : in.pair->gpus)
            gpus.push_back({{"gpu", g.gpu.arch.sass_name()}, {"runs", runs_name(g.runs)}, {"why", g.why}, {"note", g.note}});
        out["pair"] = {{"spec", in.pair_spec},
                       {"runs", runs_name(in.pair->runs)},
                       {"verdict", in.pair->cell()},
                       {"summary", in.pair->line(m)},
                       {"driver", {{"fit", nvidia::fit_name(in.pair->driver.fit)}, {"why", in.pair->driver.why}}},
                       {"gpus", gpus}};
    }
    return out;
}

}  // namespace cudaenv::gpu
