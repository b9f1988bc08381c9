#include "core/msvc.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/activation.hpp"
#include "core/host_compiler.hpp"
#include "core/pathlist.hpp"
#include "util/json_text.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

std::string string_of(const nlohmann::json& o, const char* key) {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Toolset folder names compared as versions (14.29.30133 > 14.29.30037).
bool newer(const MsvcToolset& a, const MsvcToolset& b) {
    auto va = Version::parse(a.version), vb = Version::parse(b.version);
    if (a.msc_ver != b.msc_ver) return a.msc_ver > b.msc_ver;
    if (va && vb && *va != *vb) return *va > *vb;
    return a.instance < b.instance;
}

bool same_name(std::string_view a, std::string_view b) { return str::iequals_ascii(a, b); }

const std::pair<std::string, std::string>* lookup(const std::vector<std::pair<std::string, std::string>>& env,
                                                  std::string_view name) {
    for (const auto& kv : env)
        if (same_name(kv.first, name)) return &kv;
    return nullptr;
}

}  // namespace

std::optional<std::vector<VsInstance>> parse_vswhere(std::string_view json) {
    auto doc = parse_json(json);  // bounded first, as every JSON cudaenv reads
    if (doc.is_discarded() || !doc.is_array()) return std::nullopt;
    std::vector<VsInstance> out;
    for (const auto& o : doc) {
        if (!o.is_object()) continue;
        VsInstance vs;
        vs.path = string_of(o, "installationPath");
        if (vs.path.empty()) continue;
        vs.name = string_of(o, "displayName");
        vs.version = string_of(o, "installationVersion");
        if (auto it = o.find("isComplete"); it != o.end() && it->is_boolean()) vs.complete = it->get<bool>();
        out.push_back(std::move(vs));
    }
    return out;
}

std::string vs_generator(const VsInstance& vs) {
    auto v = Version::parse(vs.version.substr(0, vs.version.find('.', vs.version.find('.') + 1)));
    switch (v ? v->major() : 0) {
        case 15: return "Visual Studio 15 2017";
        case 16: return "Visual Studio 16 2019";
        case 17: return "Visual Studio 17 2022";
        case 18: return "Visual Studio 18 2026";
        default: return "";
    }
}

std::optional<int> toolset_msc_ver(std::string_view name) {
    auto v = Version::parse(name);
    if (!v || v->parts().size() != 3 || v->major() != 14 || v->minor() < 10 || v->minor() > 99) return std::nullopt;
    return 1900 + v->minor();
}

std::string msvc_tools_dir(const std::string& instance) { return instance + "\\VC\\Tools\\MSVC"; }
std::string vcvarsall_path(const std::string& instance) { return instance + "\\VC\\Auxiliary\\Build\\vcvarsall.bat"; }
std::string toolset_cl(const std::string& instance, const std::string& version) {
    return msvc_tools_dir(instance) + "\\" + version + "\\bin\\Hostx64\\x64\\cl.exe";
}

std::optional<MsvcToolset> pick_toolset(const std::vector<MsvcToolset>& toolsets, const Version& cuda) {
    auto rule = host_compiler_rule(cuda);
    if (!rule) return std::nullopt;
    auto [lo, hi] = msvc_range(*rule);
    std::optional<MsvcToolset> best;
    for (const auto& t : toolsets)
        if (t.msc_ver >= lo && t.msc_ver <= hi && (!best || newer(t, *best))) best = t;
    return best;
}

std::string platform_toolset(int msc_ver) {
    if (msc_ver < 1920) return "v141";
    if (msc_ver < 1930) return "v142";
    if (msc_ver < 1950) return "v143";
    return "v145";
}

std::string toolset_words(const MsvcToolset& t) {
    return "MSVC " + t.version + " (_MSC_VER " + std::to_string(t.msc_ver) +
           (t.product.empty() ? std::string() : ", " + t.product) + ")";
}

std::string no_toolset_line(const std::vector<MsvcToolset>& toolsets, const Version& cuda) {
    const auto mm = Version({cuda.major(), cuda.minor()}).str();
    auto rule = host_compiler_rule(cuda);
    if (!rule || rule->msvc.empty()) return "no _MSC_VER range is known for CUDA " + mm + "; no Visual Studio toolset was entered";
    std::string found;
    if (toolsets.empty()) {
        found = "no Visual Studio toolset is installed";
    } else {
        std::vector<std::string> names;
        for (const auto& t : toolsets) names.push_back(t.version + " (" + std::to_string(t.msc_ver) + ")");
        found = "installed: " + str::join(names, ", ");
    }
    return "CUDA " + mm + "'s nvcc needs an MSVC toolset with _MSC_VER " + rule->msvc + "; " + found +
           "; none was entered (nvcc's -allow-unsupported-compiler skips its check, at your own risk; cudaenv never "
           "passes it)";
}

ToolsetEnv toolset_env_from_capture(const std::vector<std::pair<std::string, std::string>>& before,
                                    const std::vector<std::pair<std::string, std::string>>& after) {
    static const char* lists_anyway[] = {"INCLUDE", "LIB", "LIBPATH", "EXTERNAL_INCLUDE"};
    ToolsetEnv out;
    for (const auto& [raw_name, value] : after) {
        // PROMPT: cmd.exe sets its own where there is none; it is not the toolset's.
        if (!valid_env_name(raw_name) || same_name(raw_name, "__VSCMD_PREINIT_PATH") || same_name(raw_name, "PROMPT"))
            continue;
        const auto* old = lookup(before, raw_name);
        if (old && old->second == value) continue;
        const std::string name = same_name(raw_name, "PATH") ? "PATH" : raw_name;
        const bool listy = std::any_of(std::begin(lists_anyway), std::end(lists_anyway),
                                       [&](const char* l) { return same_name(name, l); });
        auto entries = split_path_list(value, PathStyle::windows);
        std::erase(entries, std::string());
        if (old && !old->second.empty()) {
            // The old list, whole, somewhere in the new one: what stands around it was added.
            auto was = split_path_list(old->second, PathStyle::windows);
            std::erase(was, std::string());
            auto at = std::search(entries.begin(), entries.end(), was.begin(), was.end());
            if (!was.empty() && at != entries.end()) {
                ToolsetEnv::List l{name, {entries.begin(), at}, {at + static_cast<std::ptrdiff_t>(was.size()), entries.end()}};
                out.lists.push_back(std::move(l));
                continue;
            }
        } else if (listy || name == "PATH") {
            out.lists.push_back({name, entries, {}});
            continue;
        }
        out.set.emplace_back(name, value);
    }
    return out;
}

std::vector<std::pair<std::string, std::string>> clean_windows_env(
    const std::vector<std::pair<std::string, std::string>>& env) {
    static const char* kept[] = {"ALLUSERSPROFILE", "APPDATA", "CommonProgramFiles", "CommonProgramFiles(x86)",
                                 "CommonProgramW6432", "COMPUTERNAME", "ComSpec", "HOMEDRIVE", "HOMEPATH",
                                 "LOCALAPPDATA", "NUMBER_OF_PROCESSORS", "OS", "PATHEXT", "PROCESSOR_ARCHITECTURE",
                                 "PROCESSOR_IDENTIFIER", "PROCESSOR_LEVEL", "PROCESSOR_REVISION", "ProgramData",
                                 "ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "PUBLIC", "SystemDrive",
                                 "SystemRoot", "TEMP", "TMP", "USERDOMAIN", "USERNAME", "USERPROFILE", "windir"};
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* k : kept)
        if (const auto* kv = lookup(env, k)) out.emplace_back(kv->first, kv->second);
    if (const auto* root = lookup(env, "SystemRoot")) {
        const auto& r = root->second;
        out.emplace_back("PATH", r + "\\system32;" + r + ";" + r + "\\System32\\Wbem;" + r +
                                     "\\System32\\WindowsPowerShell\\v1.0\\");
    }
    return out;
}

}  // namespace cudaenv
