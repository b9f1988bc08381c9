// `export cmake-presets`: a configure, a build and a test preset per pair,
// merged into CMakeUserPresets.json. Only cudaenv's own presets are written
// into the user's text (util/json_text): every other byte stays as it was,
// numbers such as 12345678901234567890123, 1.10 or 1e-7 included.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/json_text.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

constexpr const char* kinds[] = {"configurePresets", "buildPresets", "testPresets"};
constexpr size_t max_presets_bytes = 16u << 20;

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

ojson configure_preset(const PairVars& p, PathStyle style) {
    // A search-path list in full, as planned here: a preset can only prepend
    // with "<folders>:$penv{PATH}", which leaves an empty entry (the current
    // folder) when the caller has none (issue 29.2).
    ojson env = ojson::object();
    for (const auto* e : p.intent()) {
        if (e->value) env[e->name] = *e->value;
        else if (e->op != EnvOp::prepend) env[e->name] = nullptr;  // null: unset in presets
    }
    auto nvcc = p.get("CUDACXX").value_or(
        fsx::to_utf8(fsx::from_utf8(p.cuda_root) / "bin" / (style == PathStyle::windows ? "nvcc.exe" : "nvcc")));
    for (const auto& [k, v] : env.items())
        if (v.is_string()) refuse_macros(v.get<std::string>(), "the value of " + k);
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

// Windows: a configure preset for a Visual Studio generator, whose CUDA
// build customization is the pair's toolkit (-T cuda=<folder>: CMake reads
// <folder>\extras\visual_studio_integration\MSBuildExtensions, which
// `cudaenv install` puts there), built with the installation that holds the
// newest toolset the pair's nvcc accepts (-T <platform toolset>,version=...),
// else with the newest installation. nullopt without a Visual Studio.
std::optional<ojson> vs_preset(const PairVars& p, const Options& o) {
    if (o.style != PathStyle::windows || o.vs_instances.empty()) return std::nullopt;
    auto cuda = Version::parse(p.cuda_version);
    auto pick = cuda ? pick_toolset(o.toolsets, *cuda) : std::nullopt;
    const VsInstance* vs = nullptr;
    for (const auto& i : o.vs_instances) {
        if (pick && i.path == pick->instance) vs = &i;
        auto vi = Version::parse(i.version), vb = vs ? Version::parse(vs->version) : std::nullopt;
        if (!pick && (!vs || (vi && vb && *vi > *vb))) vs = &i;
    }
    if (!vs || vs_generator(*vs).empty()) return std::nullopt;
    // CMake splits -T at ',' and each field at '='.
    if (p.cuda_root.find(',') != std::string::npos)
        throw Error("the toolkit folder '" + p.cuda_root + "' holds a ',', which CMake's toolset field (-T cuda=...) "
                        "splits at; nothing was written",
                    "move it to a folder whose name has none, then `cudaenv add` it there");
    std::string toolset = "cuda=" + p.cuda_root;
    if (pick) toolset = platform_toolset(pick->msc_ver) + ",version=" + pick->version + "," + toolset;
    auto base = configure_preset(p, o.style);
    ojson preset;
    preset["name"] = preset_name(p) + "-vs";
    preset["displayName"] = describe(p) + " (cudaenv, " + vs_generator(*vs) + ")";
    preset["description"] = base["description"];
    preset["generator"] = vs_generator(*vs);
    preset["architecture"] = {{"value", "x64"}, {"strategy", "set"}};
    preset["toolset"] = {{"value", toolset}, {"strategy", "set"}};
    preset["binaryDir"] = "${sourceDir}/build/" + preset_name(p) + "-vs";
    preset["cacheVariables"] = {{"CUDAToolkit_ROOT", p.cuda_root}, {"CMAKE_GENERATOR_INSTANCE", vs->path}};
    preset["environment"] = base["environment"];
    preset["vendor"] = base["vendor"];
    return preset;
}

// The configure presets (the pair's, and on Windows its Visual Studio one),
// and the build and test presets that use each (they inherit its environment).
std::vector<std::vector<ojson>> presets_of(const PairVars& p, const Options& o) {
    auto follower = [&](const std::string& name, const char* what) {
        ojson b;
        b["name"] = name;
        b["configurePreset"] = name;
        b["description"] = std::string(marker) + " cmake-presets`; " + what + " with cudaenv pair " + p.spec;
        b["vendor"] = {{"cudaenv", {{"spec", p.spec}}}};
        return b;
    };
    std::vector<std::vector<ojson>> out = {{configure_preset(p, o.style)},
                                           {follower(preset_name(p), "builds")},
                                           {follower(preset_name(p), "tests")}};
    if (auto vs = vs_preset(p, o)) {
        const auto name = (*vs)["name"].get<std::string>();
        out[0].push_back(std::move(*vs));
        out[1].push_back(follower(name, "builds"));
        out[2].push_back(follower(name, "tests"));
    }
    return out;
}

// `j` as text that starts at column `indent` (compact when it is npos).
std::string indented(const ojson& j, size_t indent) {
    if (indent == std::string::npos) return j.dump();
    std::string out;
    for (char c : j.dump(2)) {
        out += c;
        if (c == '\n') out.append(indent, ' ');
    }
    return out;
}

// The column `at` starts in, or npos when it shares its line with `from`.
size_t column(std::string_view text, size_t from, size_t at) {
    auto nl = text.rfind('\n', at);
    if (nl == std::string_view::npos || nl < from) return std::string::npos;
    return at - nl - 1;
}

struct Edit {
    size_t begin, end;
    std::string text;
};

class PresetsFile {
public:
    PresetsFile(fs::path file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}

    // Refuses what CMake would refuse or what cudaenv must not rewrite.
    void check() const {
        const auto where = "'" + fsx::to_utf8(file_) + "'";
        const std::string kept = "; it was left as it was";
        if (auto why = check_json_limits(text_))
            throw Error(where + " is not a presets file cudaenv can read: " + *why + kept, "fix or remove the file");
        auto doc = parse_ordered_json(text_);
        if (doc.is_discarded())
            throw Error(where + " is not valid JSON" + kept, "fix or remove the file, then export again");
        if (auto key = json_duplicate_key(text_))
            throw Error(where + " has the key '" + *key + "' twice in one object, which CMake refuses" + kept,
                        "merge the two into one, then export again");
        bool bad = !doc.is_object() || (doc.contains("version") && !doc["version"].is_number_integer());
        for (const char* k : kinds) bad = bad || (doc.contains(k) && !doc[k].is_array());
        if (bad)
            throw Error(where + " is not a CMake presets file (an object with preset lists)" + kept,
                        "fix or remove the file, then export again");
    }

    void raise_version(long long version) {
        auto root = json_root(text_);
        bool found = false;
        for (const auto& m : json_members(text_, root))
            if (m.key == "version") {
                found = true;
                if (parse_ordered_json(span(m.value)).get<long long>() < version)
                    edits_.push_back({m.value.begin, m.value.end, std::to_string(version)});
            }
        if (!found) insert_member(root, "version", std::to_string(version), true);
        apply();
    }

    // Puts `presets` (each named) into the list `kind`: over cudaenv's own
    // preset of the same name, else at the list's end.
    void place(const char* kind, const std::vector<ojson>& presets) {
        place_edits(kind, presets);
        apply();
    }

    const std::string& text() const { return text_; }

private:
    fs::path file_;
    std::string text_;
    std::vector<Edit> edits_;

    // Applies the edits made against the current text (none overlap), last first.
    void apply() {
        std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
        for (const auto& e : edits_) text_.replace(e.begin, e.end - e.begin, e.text);
        edits_.clear();
    }

    void place_edits(const char* kind, const std::vector<ojson>& presets) {
        auto root = json_root(text_);
        for (const auto& m : json_members(text_, root)) {
            if (m.key != kind) continue;
            auto elements = json_elements(text_, m.value);
            // One style for the whole list, the first element's: written again the same.
            const auto indent = elements.empty() ? 0 : column(text_, m.value.begin, elements.front().begin);
            std::vector<ojson> fresh;
            for (const auto& p : presets) {
                bool placed = false;
                for (const auto& e : elements) {
                    auto existing = parse_ordered_json(span(e));
                    if (!existing.is_object() || !existing.contains("name") || existing["name"] != p["name"]) continue;
                    if (!is_ours(existing))
                        throw Error("'" + fsx::to_utf8(file_) + "' already has a " + std::string(kind) + " entry named '" +
                                        p["name"].get<std::string>() + "' that cudaenv did not write; it was left as it was",
                                    "rename that preset, then export again");
                    edits_.push_back({e.begin, e.end, indented(p, indent)});
                    placed = true;
                }
                if (!placed) fresh.push_back(p);
            }
            if (fresh.empty()) return;
            if (elements.empty()) {
                edits_.push_back({m.value.begin, m.value.end, array_text(fresh, column(text_, root.begin, m.key_span.begin))});
                return;
            }
            std::string add;
            for (const auto& p : fresh)
                add += indent == std::string::npos ? ", " + p.dump() : ",\n" + std::string(indent, ' ') + indented(p, indent);
            edits_.push_back({elements.back().end, elements.back().end, add});
            return;
        }
        insert_member(root, kind, array_text(presets, member_indent(root)), false);
    }

    std::string span(JsonSpan s) const { return text_.substr(s.begin, s.end - s.begin); }

    size_t member_indent(JsonSpan root) const {
        auto members = json_members(text_, root);
        return members.empty() ? 2 : column(text_, root.begin, members.front().key_span.begin);
    }

    // A list of `presets` whose key starts at column `indent`.
    static std::string array_text(const std::vector<ojson>& presets, size_t indent) {
        if (indent == std::string::npos) {
            std::string out = "[";
            for (const auto& p : presets) out += (out.size() > 1 ? ", " : "") + p.dump();
            return out + "]";
        }
        std::string out = "[";
        for (const auto& p : presets)
            out += (out.size() > 1 ? ",\n" : "\n") + std::string(indent + 2, ' ') + indented(p, indent + 2);
        return out + "\n" + std::string(indent, ' ') + "]";
    }

    // A new member of the top-level object: first, or after the last one.
    void insert_member(JsonSpan root, const std::string& key, const std::string& value, bool first) {
        auto members = json_members(text_, root);
        const auto indent = member_indent(root);
        const std::string lead = indent == std::string::npos ? " " : "\n" + std::string(indent, ' ');
        const std::string member = "\"" + key + "\": " + value;
        if (members.empty()) {
            edits_.push_back({root.begin, root.end, "{" + lead + member + (indent == std::string::npos ? " }" : "\n}")});
        } else if (first) {
            edits_.push_back({members.front().key_span.begin, members.front().key_span.begin,
                              member + "," + lead});
        } else {
            edits_.push_back({members.back().value.end, members.back().value.end, "," + lead + member});
        }
    }
};

}  // namespace

std::string render_preset(const PairVars& p, const Options& o) { return configure_preset(p, o.style).dump(2); }

std::string merge_presets(const std::string& existing, const std::vector<PairVars>& pairs, long long version,
                          const Options& o, const fs::path& file) {
    std::vector<std::vector<ojson>> by_kind(3);
    for (const auto& p : pairs) {
        auto three = presets_of(p, o);
        for (size_t k = 0; k < 3; ++k) by_kind[k].insert(by_kind[k].end(), three[k].begin(), three[k].end());
    }
    PresetsFile doc(file, existing.empty() ? "{\n}\n" : existing);
    doc.check();
    doc.raise_version(version);
    for (size_t k = 0; k < 3; ++k) doc.place(kinds[k], by_kind[k]);
    auto text = doc.text();
    if (parse_ordered_json(text).is_discarded())
        throw Error("merging the presets into '" + fsx::to_utf8(file) + "' gave text that is not JSON; it was left as it was");
    if (text.back() != '\n') text += "\n";
    return text;
}

std::string write_presets(const std::vector<PairVars>& pairs, const Options& o) {
    fs::path file = o.out ? *o.out : o.cwd / "CMakeUserPresets.json";
    std::error_code ec;
    if (fs::is_directory(file, ec)) file /= "CMakeUserPresets.json";
    long long version = 3;  // the first with CMakeUserPresets.json, $penv{} and an optional generator
    // A user file must not be older than the project's CMakePresets.json.
    if (auto project = fsx::read_file(file.parent_path() / "CMakePresets.json")) {
        auto pj = parse_ordered_json(*project);
        if (pj.is_object() && pj.contains("version") && pj["version"].is_number_integer())
            version = std::max(version, pj["version"].get<long long>());
    }
    // Parallel exports into one file take turns: each keeps the others' presets.
    fsx::UserFileLock lock(file);
    auto old = fsx::read_user_file(file, max_presets_bytes, "cmake-presets");
    fsx::write_user_file(file, merge_presets(old.value_or(""), pairs, version, o, file));
    std::string names;
    for (const auto& p : pairs) names += (names.empty() ? "" : ", ") + preset_name(p);
    say_wrote("configure, build and test preset" + std::string(pairs.size() > 1 ? "s " : " ") + names, file);
    return {};
}

}  // namespace cudaenv::exporting
