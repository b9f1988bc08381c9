#include "store/msvc.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "platform/process.hpp"
#include "store/store.hpp"
#include "util/cache_file.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

// The file: a first record naming the format, then one record per answer,
// its key first: ["toolsets", vswhere.exe, instances folder] or ["env",
// vcvarsall.bat, toolset version], then its stamps, then the answer.
constexpr std::string_view kind = "cudaenv msvc cache 1";
constexpr size_t max_file_bytes = 4u << 20;
constexpr size_t max_records = 32;

using Block = std::vector<std::pair<std::string, std::string>>;

std::string env_or(const char* name, const std::string& fallback = {}) {
    auto v = platform::get_env(name);
    return v && !v->empty() ? *v : fallback;
}

std::string read_or(const EnvReader& env, const char* name, const std::string& fallback = {}) {
    auto v = env(name);
    return v && !v->empty() ? *v : fallback;
}

size_t count(records::Fields& f) {
    auto n = f.number();
    if (n < 0 || n > 100000) throw std::out_of_range("record: bad count");
    return static_cast<size_t>(n);
}

void put_list(std::vector<std::string>& out, const std::vector<std::string>& v) {
    out.push_back(std::to_string(v.size()));
    out.insert(out.end(), v.begin(), v.end());
}

std::vector<std::string> take_list(records::Fields& f) {
    std::vector<std::string> out(count(f));
    for (auto& s : out) s = f.str();
    return out;
}

// The cache file's records, and writing one in place of the one with the same key.
class CacheFile {
public:
    explicit CacheFile(Store& store) : file_(store.msvc_cache_file()) {
        text_ = fsx::read_file(file_, max_file_bytes).value_or("");
        records::Reader r(text_);
        std::vector<std::string_view> f;
        std::string_view raw;
        if (!r.next(f) || !r.intact() || f.size() != 1 || f[0] != kind) return;
        while (r.next(f, &raw))
            if (r.intact()) records_.emplace_back(f, raw);
    }

    // The answer kept under `key` while its stamps hold: a cursor at the answer's first field.
    template <class Decode>
    auto find(const std::vector<std::string>& key, Stamps* stamps_out, Decode decode)
        -> std::optional<decltype(decode(std::declval<records::Fields&>()))> {
        for (const auto& [f, raw] : records_) {
            if (f.size() < key.size() || !std::equal(key.begin(), key.end(), f.begin())) continue;
            try {
                records::Fields in(f, key.size());
                Stamps read;
                if (!stamps_hold(in, read)) return std::nullopt;
                auto answer = decode(in);
                if (!in.at_end()) return std::nullopt;
                if (stamps_out) stamps_out->insert(stamps_out->end(), read.begin(), read.end());
                return answer;
            } catch (const std::out_of_range&) {
                return std::nullopt;  // damaged: worked out again
            }
        }
        return std::nullopt;
    }

    void keep(const std::vector<std::string>& key, const Stamps& stamps, const std::vector<std::string>& answer) {
        std::vector<std::string> fields = key;
        put_stamps(fields, stamps);
        fields.insert(fields.end(), answer.begin(), answer.end());
        std::string out;
        records::put_record(out, {kind});
        std::vector<std::string_view> mine(fields.begin(), fields.end());
        records::put_record(out, mine);
        size_t kept = 1;
        for (const auto& [f, raw] : records_) {
            if (kept >= max_records) break;
            if (f.size() >= key.size() && std::equal(key.begin(), key.end(), f.begin())) continue;
            out += raw;
            ++kept;
        }
        save_cache_file(file_, out);  // a store that cannot be written works it out again next time
    }

private:
    fs::path file_;
    std::string text_;
    std::vector<std::pair<std::vector<std::string_view>, std::string_view>> records_;
};

std::vector<std::string> encode_toolsets(const InstalledToolsets& t) {
    std::vector<std::string> out = {t.vswhere_found ? "1" : "0", std::to_string(t.instances.size())};
    for (const auto& i : t.instances) out.insert(out.end(), {i.path, i.name, i.version});
    out.push_back(std::to_string(t.toolsets.size()));
    for (const auto& s : t.toolsets) out.insert(out.end(), {s.instance, s.product, s.version, std::to_string(s.msc_ver)});
    return out;
}

InstalledToolsets decode_toolsets(records::Fields& f) {
    InstalledToolsets t;
    t.vswhere_found = f.next() == "1";
    t.instances.resize(count(f));
    for (auto& i : t.instances) {
        i.path = f.str();
        i.name = f.str();
        i.version = f.str();
    }
    t.toolsets.resize(count(f));
    for (auto& s : t.toolsets) {
        s.instance = f.str();
        s.product = f.str();
        s.version = f.str();
        auto msc = toolset_msc_ver(s.version);
        if (!msc || f.number() != *msc) throw std::out_of_range("record: bad toolset");
        s.msc_ver = *msc;
    }
    return t;
}

std::vector<std::string> encode_toolset_env(const ToolsetEnv& e) {
    std::vector<std::string> out = {e.version, std::to_string(e.set.size())};
    for (const auto& [k, v] : e.set) out.insert(out.end(), {k, v});
    out.push_back(std::to_string(e.lists.size()));
    for (const auto& l : e.lists) {
        out.push_back(l.name);
        put_list(out, l.front);
        put_list(out, l.back);
    }
    return out;
}

ToolsetEnv decode_toolset_env(records::Fields& f) {
    ToolsetEnv e;
    e.version = f.str();
    e.set.resize(count(f));
    for (auto& [k, v] : e.set) {
        k = f.str();
        v = f.str();
    }
    e.lists.resize(count(f));
    for (auto& l : e.lists) {
        l.name = f.str();
        l.front = take_list(f);
        l.back = take_list(f);
    }
    return e;
}

// The toolsets of one installation: VC\Tools\MSVC\14.xx.yyyyy folders with an x64 cl.exe.
void add_toolsets(const VsInstance& vs, std::vector<MsvcToolset>& out) {
    if (!fsx::is_file(fsx::from_utf8(vcvarsall_path(vs.path)))) return;
    std::error_code ec;
    for (fs::directory_iterator it(fsx::from_utf8(msvc_tools_dir(vs.path)), ec), end; !ec && it != end;
         it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        auto msc = toolset_msc_ver(name);
        if (msc && fsx::is_file(fsx::from_utf8(toolset_cl(vs.path, name))))
            out.push_back({vs.path, vs.name, name, *msc});
    }
}

std::string last_line(const std::string& text) {
    auto lines = str::split(std::string(str::trim(text)), '\n');
    return lines.empty() ? std::string() : std::string(str::trim(lines.back()));
}

}  // namespace

std::string encode_environment(const Block& env) {
    std::string out;
    std::vector<std::string_view> fields;
    for (const auto& [k, v] : env) fields.insert(fields.end(), {k, v});
    records::put_record(out, fields);
    return out;
}

Block decode_environment(std::string_view text) {
    records::Reader r(text);
    std::vector<std::string_view> f;
    Block out;
    if (!r.next(f) || !r.intact() || f.size() % 2 != 0) return out;
    for (size_t i = 0; i < f.size(); i += 2) out.emplace_back(f[i], f[i + 1]);
    return out;
}

InstalledToolsets installed_toolsets(Store& store, const EnvReader& env, Stamps* key) {
    InstalledToolsets out;
    if (!platform::has_msvc_toolsets) return out;
    // vswhere.exe has this one place since Visual Studio 2017 (15.2), Build Tools included.
    out.vswhere = read_or(env, "ProgramFiles(x86)", read_or(env, "ProgramFiles")) +
                  "\\Microsoft Visual Studio\\Installer\\vswhere.exe";
    const auto instances_dir = read_or(env, "ProgramData") + "\\Microsoft\\VisualStudio\\Packages\\_Instances";
    const std::vector<std::string> id = {"toolsets", out.vswhere, instances_dir};
    CacheFile cache(store);
    if (auto kept = cache.find(id, key, decode_toolsets)) {
        kept->vswhere = out.vswhere;
        return *kept;
    }

    Stamps stamps = {{out.vswhere, path_stamp(out.vswhere)}, {instances_dir, path_stamp(instances_dir)}};
    if (fsx::is_file(fsx::from_utf8(out.vswhere))) {
        auto pr = platform::run_process({out.vswhere, "-all", "-prerelease", "-products", "*", "-format", "json", "-utf8"},
                                        platform::environment(), std::chrono::seconds(30));
        if (pr.started && pr.exit_code == 0) {
            out.vswhere_found = true;
            for (auto& vs : parse_vswhere(pr.out).value_or(std::vector<VsInstance>{})) {
                if (!vs.complete) continue;  // a broken or half-done installation
                const auto tools = msvc_tools_dir(vs.path);
                stamps.emplace_back(tools, path_stamp(tools));
                add_toolsets(vs, out.toolsets);
                out.instances.push_back(std::move(vs));
            }
        }
    }
    std::sort(out.toolsets.begin(), out.toolsets.end(), [](const MsvcToolset& a, const MsvcToolset& b) {
        auto va = Version::parse(a.version), vb = Version::parse(b.version);
        if (va && vb && *va != *vb) return *va > *vb;
        return a.instance < b.instance;
    });
    cache.keep(id, stamps, encode_toolsets(out));
    if (key) key->insert(key->end(), stamps.begin(), stamps.end());
    return out;
}

ToolsetEnv toolset_environment(Store& store, const MsvcToolset& t, Stamps* key) {
    const auto vcvars = vcvarsall_path(t.instance);
    const std::vector<std::string> id = {"env", vcvars, t.version};
    CacheFile cache(store);
    if (auto kept = cache.find(id, key, decode_toolset_env)) return *kept;

    const auto folder = msvc_tools_dir(t.instance) + "\\" + t.version;
    Stamps stamps = {{vcvars, path_stamp(vcvars)}, {folder, path_stamp(folder)}};
    // The batch file (shell/cmd/vcvars_capture.cmd) and the file its
    // `cudaenv-probe __environ` writes, in the store's tmp folder; every path
    // reaches cmd.exe through a variable, never inside its command line.
    auto dir = store.tmp_dir();
    std::error_code ec;
    fs::create_directories(dir, ec);
    const auto stem = "vcvars~" + std::to_string(std::random_device{}());
    const auto batch = dir / (stem + ".cmd"), before = dir / (stem + ".before"), dump = dir / (stem + ".env");
    struct Cleanup {
        std::vector<fs::path> files;
        ~Cleanup() {
            std::error_code e;
            for (const auto& f : files) fs::remove(f, e);
        }
    } cleanup{{batch, before, dump}};
    auto text = embedded::find("cmd/vcvars_capture.cmd");
    if (!text) throw Error("this build has no shell/cmd/vcvars_capture.cmd");
    // cmd.exe reads CRLF; the checkout may have either.
    fsx::write_file_atomic(batch, str::replace_all(str::replace_all(std::string(*text), "\r\n", "\n"), "\n", "\r\n"),
                           fsx::Durability::cache);

    auto env = clean_windows_env(platform::environment());
    env.emplace_back("CUDAENV_VCVARSALL", vcvars);
    env.emplace_back("CUDAENV_VCVARS_VER", t.version);
    env.emplace_back("CUDAENV_PROBE", fsx::to_utf8(platform::required_sibling_program("cudaenv-probe", "--msvc")));
    env.emplace_back("CUDAENV_ENV_BEFORE", fsx::to_utf8(before));
    env.emplace_back("CUDAENV_ENV_OUT", fsx::to_utf8(dump));
    std::string comspec = env_or("SystemRoot", "C:\\Windows") + "\\system32\\cmd.exe";
    for (const auto& [k, v] : env)
        if (str::iequals_ascii(k, "ComSpec") && !v.empty()) comspec = v;
    const std::string what = "vcvarsall.bat x64 -vcvars_ver=" + t.version + " (" + vcvars + ")";
    auto pr = platform::run_process({comspec, "/d", "/c", fsx::to_utf8(batch)}, env, std::chrono::minutes(5));
    auto captured = fsx::read_file(dump);
    auto given = fsx::read_file(before);
    if (!pr.started || pr.exit_code != 0 || !captured || !given) {
        auto said = last_line(pr.out + "\n" + pr.err);
        throw Error(what + " failed" + (pr.started ? " (exit status " + std::to_string(pr.exit_code) + ")" : ": " + pr.error) +
                        (said.empty() ? std::string() : ": " + said),
                    "run it in cmd.exe to see why, or repair that installation in the Visual Studio Installer");
    }
    // Against what the same cmd.exe gave a program before vcvarsall ran: what
    // cmd.exe (PROMPT) or the system (Wine's WINE* variables) adds to every
    // process is in both.
    auto result = toolset_env_from_capture(decode_environment(*given), decode_environment(*captured));
    result.version = t.version;
    if (result.lists.empty())
        throw Error(what + " changed no search path; it did not enter the toolset",
                    "run it in cmd.exe to see why, or repair that installation in the Visual Studio Installer");
    // A Windows SDK installed or removed later changes what vcvarsall picks.
    for (const auto& [k, v] : result.set)
        if (str::iequals_ascii(k, "WindowsSdkDir")) {
            auto include = v + (v.ends_with('\\') ? "" : "\\") + "Include";
            stamps.emplace_back(include, path_stamp(include));
        }
    cache.keep(id, stamps, encode_toolset_env(result));
    if (key) key->insert(key->end(), stamps.begin(), stamps.end());
    return result;
}

}  // namespace cudaenv
