#include "store/activation_cache.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cudalibs.hpp"
#include "store/host_compiler_cache.hpp"
#include "store/msvc.hpp"
#include "store/store.hpp"
#include "cudaenv_version.hpp"
#include "util/cache_file.hpp"
#include "util/toml_file.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/records.hpp"

namespace cudaenv {

namespace {

// The file: a first record [kind, count, (config.toml path, its text)...]
// that every other record was made under, then one record per activation:
//   id (program stamp, style, shared store, spec),
//   count, (variable, "=value" or "-")...  the environment reads, in order
//   count, (path, stamp)...                 the stamps
//   the result (put_result below).
// Version 3 keeps the activation's whole intent (EnvDiff) in the checksummed
// records of version 2 (which kept the changes only); a file of an earlier
// version reads as empty.
constexpr std::string_view activation_kind = "cudaenv activation cache 3";
constexpr size_t max_file_bytes = 4u << 20;

using Reads = std::vector<std::pair<std::string, std::optional<std::string>>>;

std::string opt_field(const std::optional<std::string>& v) { return v ? "=" + *v : "-"; }

std::optional<std::string> take_opt(records::Fields& f) {
    auto v = f.next();
    if (v == "-") return std::nullopt;
    if (!v.starts_with('=')) throw std::out_of_range("record: bad value");
    return std::string(v.substr(1));
}

std::string flag(bool b) { return b ? "1" : "0"; }

bool take_flag(records::Fields& f) {
    auto v = f.next();
    if (v != "0" && v != "1") throw std::out_of_range("record: bad flag");
    return v == "1";
}

size_t take_count(records::Fields& f) {
    auto n = f.number();
    if (n < 0 || n > 100000) throw std::out_of_range("record: bad count");
    return static_cast<size_t>(n);
}

void put_strings(std::vector<std::string>& out, const std::vector<std::string>& v) {
    out.push_back(std::to_string(v.size()));
    out.insert(out.end(), v.begin(), v.end());
}

std::vector<std::string> take_strings(records::Fields& f) {
    std::vector<std::string> out(take_count(f));
    for (auto& s : out) s = f.str();
    return out;
}

// What plan_activation returns, less the spec (it is in the id).
void put_result(std::vector<std::string>& out, const Activation& a) {
    out.push_back(a.full_spec);
    if (a.pair && a.folders) {
        const auto& t = a.pair->toolkit;
        out.insert(out.end(), {"pair", fsx::to_utf8(t.path), t.version.str(), flag(t.managed), flag(t.shared)});
        if (const auto& c = a.pair->cudnn)
            out.insert(out.end(), {"cudnn", fsx::to_utf8(c->path), c->variant, c->version.str(),
                                   std::to_string(c->cuda_major), flag(c->managed), flag(c->shared)});
        else
            out.push_back("none");
        auto tk = encode(a.folders->toolkit);
        out.insert(out.end(), tk.begin(), tk.end());
        if (a.folders->cudnn) {
            auto c = encode(*a.folders->cudnn);
            out.insert(out.end(), c.begin(), c.end());
        } else {
            out.push_back("null");
        }
    } else {
        out.push_back("system");
    }
    out.push_back(std::to_string(a.diff.edits.size()));
    for (const auto& e : a.diff.edits) {
        out.insert(out.end(), {e.name, std::to_string(static_cast<int>(e.op)), opt_field(e.value), flag(e.changed)});
        if (e.op != EnvOp::prepend) continue;
        put_strings(out, e.prepended);
        put_strings(out, e.removed);
    }
    put_strings(out, a.notes);
    put_strings(out, a.choice);
}

Activation take_result(records::Fields& f, const std::string& spec) {
    Activation a;
    a.spec = spec;
    a.full_spec = f.str();
    auto what = f.next();
    if (what == "pair") {
        Pair p;
        p.toolkit.path = fsx::from_utf8(f.next());
        p.toolkit.version = take_version(f);
        p.toolkit.managed = take_flag(f);
        p.toolkit.shared = take_flag(f);
        auto c = f.next();
        if (c == "cudnn") {
            CudnnRecord r;
            r.path = fsx::from_utf8(f.next());
            r.variant = f.str();
            r.version = take_version(f);
            r.cuda_major = static_cast<int>(f.number());
            r.managed = take_flag(f);
            r.shared = take_flag(f);
            p.cudnn = std::move(r);
        } else if (c != "none") {
            throw std::out_of_range("record: bad pair");
        }
        DetectedPair d;
        if (f.next() != "toolkit") throw std::out_of_range("record: bad toolkit");
        d.toolkit = decode_toolkit(f);
        auto dc = f.next();
        if (dc == "cudnn") d.cudnn = decode_cudnn(f);
        else if (dc != "null") throw std::out_of_range("record: bad cudnn");
        a.pair = std::move(p);
        a.folders = std::move(d);
    } else if (what != "system") {
        throw std::out_of_range("record: bad result");
    }
    a.diff.edits.resize(take_count(f));
    for (auto& e : a.diff.edits) {
        e.name = f.str();
        // Rendered into shell code unquoted: a name planning could not make is damage.
        if (!valid_env_name(e.name)) throw std::out_of_range("record: bad variable name");
        auto op = f.number();
        if (op < 0 || op > static_cast<int>(EnvOp::state)) throw std::out_of_range("record: bad operation");
        e.op = static_cast<EnvOp>(op);
        e.value = take_opt(f);
        e.changed = take_flag(f);
        if (e.op != EnvOp::prepend) continue;
        e.prepended = take_strings(f);
        e.removed = take_strings(f);
    }
    a.notes = take_strings(f);
    a.choice = take_strings(f);
    if (!f.at_end()) throw std::out_of_range("record: trailing fields");
    a.kept = true;
    return a;
}

// The folders whose listing planning reads (managed installs).
std::vector<fs::path> listed_dirs(Store& store) {
    std::vector<fs::path> out = {store.toolkits_dir(), store.cudnn_dir()};
    if (auto* s = store.shared()) out.insert(out.end(), {s->toolkits_dir(), s->cudnn_dir()});
    return out;
}

// True while config.toml `file` reads `text` ("" for none).
bool text_holds(const fs::path& file, std::string_view text) {
    try {
        return read_store_file(file).value_or("") == text;
    } catch (const Error&) {
        return false;  // unreadable now: plan, which says why
    }
}

bool is_relative(const std::string& utf8) { return !fsx::from_utf8(utf8).is_absolute(); }

}  // namespace

ActivationCache::ActivationCache(Store& store, PathStyle style)
    : store_(store), file_(store.activation_cache_file()) {
    // This build (its version, and its file's stamp: a rebuild of one
    // version), the path style and the shared store begin every record's id.
    id_prefix_ = CUDAENV_VERSION_STRING "\n" + path_stamp(platform::executable_stat_path());
    id_prefix_ += style == PathStyle::windows ? "\nwindows\n" : "\nposix\n";
    if (auto* s = store_.shared()) id_prefix_ += fsx::to_utf8(s->root());
    id_prefix_ += "\n";
    posix_ = style == PathStyle::posix;
}

const std::string& ActivationCache::file_text() {
    if (!text_) text_ = fsx::read_file(file_, max_file_bytes).value_or("");
    return *text_;
}

std::optional<Activation> ActivationCache::find(const std::string& spec, const EnvReader& env, bool msvc) {
    records::Reader r(file_text());
    std::vector<std::string_view> head;
    if (!r.next(head) || !r.intact() || head.size() < 2 || head[0] != activation_kind) return std::nullopt;
    const auto want = id_prefix_ + (msvc ? "+msvc\n" : "") + spec;
    std::vector<std::string_view> f;
    while (r.next(f)) {
        if (f.empty() || f[0] != want) continue;
        // A record changed in place (a byte of a kept path, a value that is
        // no longer UTF-8) is never served: plan again, and keep the new one.
        if (!r.intact()) return std::nullopt;
        try {
            records::Fields in(f, 1);
            bool same_env = true;
            for (size_t n = take_count(in); n > 0 && same_env; --n) {
                auto name = in.str();
                same_env = env(name) == take_opt(in);
            }
            if (!same_env) continue;  // another environment's record
            // The one record for this spec and environment: it holds, or nothing does.
            records::Fields h(head, 1);
            for (size_t n = take_count(h); n > 0; --n) {
                auto file = fsx::from_utf8(h.next());
                if (!text_holds(file, h.next())) return std::nullopt;
            }
            if (!stamps_hold(in)) return std::nullopt;
            return take_result(in, spec);
        } catch (const std::out_of_range&) {
            return std::nullopt;  // damaged: plan again
        }
    }
    return std::nullopt;
}

Activation ActivationCache::plan_and_keep(const std::string& spec, const EnvReader& env, const Planner& plan,
                                          bool msvc) {
    // Stamps before what they stand for is read: a change made meanwhile
    // shows as a changed stamp next time.
    Stamps key;
    for (const auto& d : listed_dirs(store_)) key.emplace_back(fsx::to_utf8(d), path_stamp(d));
    Reads reads;
    EnvReader recording = [&](const std::string& name) {
        auto v = env(name);
        if (std::none_of(reads.begin(), reads.end(), [&](const auto& r) { return r.first == name; }))
            reads.emplace_back(name, v);
        return v;
    };
    Activation a = plan(recording, key);

    // What config.toml said to this plan (nullptr: not known, keep nothing).
    std::vector<std::pair<std::string, std::string>> texts;
    Store* stores[] = {&store_, store_.shared()};
    for (Store* s : stores) {
        if (!s) continue;
        if (!s->config_source()) return a;
        texts.emplace_back(fsx::to_utf8(s->config_file()), *s->config_source());
    }
    // A stamp of a relative folder, or an empty PATH entry (the current
    // folder), would be read against another current folder next time.
    if (std::any_of(key.begin(), key.end(), [](const auto& k) { return is_relative(k.first); })) return a;
    for (const auto& [name, v] : reads)
        if (name == "PATH" && v && posix_ &&
            (v->empty() || v->front() == ':' || v->back() == ':' || v->find("::") != std::string::npos))
            return a;

    // A path met twice (a folder twice on PATH) is stat'ed once; its first stamp is the older.
    Stamps once;
    for (const auto& k : key)
        if (std::none_of(once.begin(), once.end(), [&](const auto& o) { return o.first == k.first; }))
            once.push_back(k);
    std::vector<std::string> fields = {id_prefix_ + (msvc ? "+msvc\n" : "") + spec, std::to_string(reads.size())};
    for (const auto& [name, v] : reads) fields.insert(fields.end(), {name, opt_field(v)});
    put_stamps(fields, once);
    put_result(fields, a);

    const std::string count = std::to_string(texts.size());
    std::vector<std::string_view> head = {activation_kind, count};
    for (const auto& [p, t] : texts) head.insert(head.end(), {p, t});
    std::string out;
    records::put_record(out, head);
    std::vector<std::string_view> mine(fields.begin(), fields.end());
    records::put_record(out, mine);

    // The records this file held (as find() read it), when made under the
    // same config.toml texts, less the one this replaces: the same id and
    // the same environment reads.
    const size_t env_fields = 2 + 2 * reads.size();
    records::Reader r(file_text());
    std::vector<std::string_view> f;
    std::string_view raw;
    if (r.next(f) && r.intact() && f == head)
        for (size_t kept = 1; kept < max_records && r.next(f, &raw);) {
            if (!r.intact()) continue;  // damaged: dropped
            if (f.size() >= env_fields && std::equal(mine.begin(), mine.begin() + env_fields, f.begin())) continue;
            out += raw;
            ++kept;
        }
    save_cache_file(file_, out);  // only beside a store that is there; one that cannot be written keeps none
    return a;
}

namespace {

// known_roots() of this store: its toolkits/ and cudnn/ folders and every record's.
std::vector<std::string> store_roots(Store& store, const std::vector<ToolkitRecord>& toolkits,
                                     const std::vector<CudnnRecord>& cudnns) {
    return known_roots({store.toolkits_dir(), store.cudnn_dir()}, toolkits, cudnns);
}

// Windows cuDNN 8.3-8.9 loads zlibwapi.dll by name, which Python's DLL hook
// must reach too: where the cuDNN's own folder has none and System32 has
// none, the folder that has it (the first on PATH, else cudaenv's own
// private folder, which ships one); nullopt when none is needed or found.
std::optional<std::string> zlibwapi_dir(const DetectedPair& p, const std::string& path, Stamps* key) {
    if (!p.cudnn || !p.cudnn->windows || !cudalibs::needs_zlibwapi(p.cudnn->version)) return std::nullopt;
    auto has = [&](const fs::path& dir) {
        if (key) key->emplace_back(fsx::to_utf8(dir), path_stamp(dir));
        return fsx::is_file(dir / fsx::from_utf8(cudalibs::zlibwapi_dll));
    };
    for (const auto& d : p.cudnn->bin_dirs)
        if (has(d)) return std::nullopt;
    for (const auto& d : platform::system_library_dirs())
        if (has(d)) return std::nullopt;
    for (const auto& e : split_path_list(path, PathStyle::windows)) {
        std::string dir;
        for (char c : e)
            if (c != '"') dir += c;
        if (!dir.empty() && fsx::from_utf8(dir).is_absolute() && has(fsx::from_utf8(dir))) return dir;
    }
    if (has(platform::private_lib_dir())) return fsx::to_utf8(platform::private_lib_dir());
    return std::nullopt;
}

// `use --msvc`: the newest toolset the pair's nvcc accepts, entered; or the
// line that says why none was.
void enter_toolset(Store& store, const DetectedPair& p, const EnvReader& env, PairEnv& penv,
                   std::vector<std::string>& notes, Stamps* key) {
    const auto found = installed_toolsets(store, env, key);
    auto pick = pick_toolset(found.toolsets, p.toolkit.version);
    if (!pick) {
        notes.push_back(no_toolset_line(found.toolsets, p.toolkit.version) +
                        (found.vswhere_found ? "" : " (no " + found.vswhere + ")"));
        return;
    }
    try {
        penv.toolset = toolset_environment(store, *pick, key);
        notes.push_back("entered " + toolset_words(*pick) + ", which CUDA " + p.toolkit.version.prefix(2).str() +
                        "'s nvcc accepts (vcvarsall.bat x64 -vcvars_ver=" + pick->version + ")");
    } catch (const Error& e) {
        notes.push_back(std::string("no Visual Studio toolset was entered: ") + e.what());
    }
}

// `toolkits`, `cudnns`: the store's lists, which the caller read anyway.
// `key`, when given, gets the detection and host-compiler keys the answer
// holds under (store/activation_cache.hpp).
Activation plan_for_pair(Store& store, std::optional<Pair> pair, const std::string& spec, const EnvReader& env,
                         PathStyle style, const std::vector<ToolkitRecord>& toolkits,
                         const std::vector<CudnnRecord>& cudnns, Stamps* key = nullptr, ActivationOptions opts = {}) {
    Activation a;
    a.spec = spec;
    // CUDAENV_VERSION holds the exact pair, not the spec as typed: `current`,
    // the shims and `env --json` then name the pair this environment has,
    // even after a newer 12.x is installed (docs/specs.md).
    a.full_spec = pair ? unique_spec(*pair, toolkits, cudnns) : "system";
    std::optional<PairEnv> penv;
    std::vector<std::string> toolset_notes;
    if (pair) {
        DetectionCache cache(store);
        cache.watch(key);
        a.folders = detect_pair(*pair, cache);
        penv = pair_env(*a.folders, a.full_spec);
        // Linux: a default c++ newer than this nvcc accepts (core/host_compiler.hpp).
        if (style == PathStyle::posix && !platform::has_msvc_toolsets && !a.folders->toolkit.nvcc.empty()) {
            if (auto choice =
                    pick_host_compiler(store.root(), a.folders->toolkit.version, env("PATH").value_or(""), key)) {
                penv->defaults = {{"NVCC_CCBIN", choice->path}, {"CUDAHOSTCXX", choice->path}};
                a.notes.push_back(choice->reason);
                a.notes.back() += "; NVCC_CCBIN and CUDAHOSTCXX: " + choice->path;
            }
        }
        if (style == PathStyle::windows && platform::dlls_on_path)
            if (auto z = zlibwapi_dir(*a.folders, env("PATH").value_or(""), key)) penv->dll_dirs.push_back(*z);
        if (style == PathStyle::windows && platform::has_msvc_toolsets && opts.msvc && !a.folders->toolkit.nvcc.empty())
            enter_toolset(store, *a.folders, env, *penv, toolset_notes, key);
    }
    a.pair = std::move(pair);
    const auto roots = store_roots(store, toolkits, cudnns);
    a.diff = plan_use(penv, a.full_spec, env, [&](const std::string& e) { return is_cuda_entry(e, roots, style); },
                      style);
    // Only what was really set is worth a word (a user's own NVCC_CCBIN wins).
    const auto* ccbin = a.diff.find("NVCC_CCBIN");
    if (!a.notes.empty() && !(ccbin && ccbin->changed && ccbin->value)) a.notes.clear();
    a.notes.insert(a.notes.end(), toolset_notes.begin(), toolset_notes.end());
    return a;
}

}  // namespace

Activation plan_activation(Store& store, const Spec& spec, const EnvReader& env, PathStyle style,
                           ActivationOptions opts) {
    ActivationCache cache(store, style);
    const auto text = spec.str();
    if (auto kept = cache.find(text, env, opts.msvc)) return std::move(*kept);
    return cache.plan_and_keep(text, env, [&](const EnvReader& recorded, Stamps& key) {
        // The store's lists are read once, for choosing the pair and for
        // telling cudaenv's PATH entries from the user's.
        const auto toolkits = store.toolkits();
        const auto cudnns = store.cudnns();
        std::optional<Pair> pair;
        std::vector<std::string> choice;
        if (!spec.system) {
            pair = select_pair(spec, store, toolkits, cudnns);
            choice = choice_explanation(spec, *pair, store, toolkits);
        }
        auto a = plan_for_pair(store, std::move(pair), text, recorded, style, toolkits, cudnns, &key, opts);
        a.choice = std::move(choice);
        return a;
    }, opts.msvc);
}

Activation plan_activation(Store& store, const Pair& pair, const std::string& spec, const EnvReader& env,
                           PathStyle style) {
    return plan_for_pair(store, pair, spec, env, style, store.toolkits(), store.cudnns());
}

}  // namespace cudaenv
