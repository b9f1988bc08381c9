#include "core/activation.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <nlohmann/json.hpp>

#include "platform/platform.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// The search lists merged entry by entry when the user changed them since
// `use`: PATH and LD_LIBRARY_PATH, and those of a Visual Studio toolset.
bool is_list_var(const std::string& name) {
    return name == "PATH" || name == "LD_LIBRARY_PATH" || name == "INCLUDE" || name == "LIB" || name == "LIBPATH" ||
           name == "EXTERNAL_INCLUDE";
}

// The state of a session's `use`, kept in the environment itself:
//   __CUDAENV_STATE      "v2;PATH=+;LD_LIBRARY_PATH=-;...;~PATH": each variable
//                        cudaenv changed (+ it had a value, - it was unset), and
//                        ~NAME for each variable whose last value cudaenv set is kept
//   __CUDAENV_<NAME>_WAS its value before the first `use`, verbatim
//   __CUDAENV_<NAME>_SET the value cudaenv last set, so deactivate can tell
//                        whether the user changed it since
// One variable per value keeps each assignment about as long as the value
// itself (cmd.exe refuses lines over 8191 characters), and names ending in
// _WAS/_SET are not among fish's colon-split *PATH variables.
std::string was_name(const std::string& name) { return "__CUDAENV_" + name + "_WAS"; }
std::string set_name(const std::string& name) { return "__CUDAENV_" + name + "_SET"; }

// cmd's limit counts UTF-16 units, not the bytes of our UTF-8 strings.
size_t utf16_length(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) {
        if ((c & 0xC0) != 0x80) ++n;  // a byte that starts a character
        if (c >= 0xF0) ++n;           // outside the BMP: a surrogate pair
    }
    return n;
}

struct State {
    std::map<std::string, std::optional<std::string>> saved;  // original values
    std::map<std::string, std::string> last_set;              // list values cudaenv set
    std::vector<std::string> order;                           // saved names, in order
};

std::optional<State> read_state(const EnvReader& env) {
    auto raw = env(state_var);
    if (!raw || !raw->starts_with("v2")) return std::nullopt;
    State st;
    for (const auto& field : str::split(*raw, ';')) {
        if (field == "v2" || field.empty()) continue;
        if (field.starts_with("~")) {
            auto name = field.substr(1);
            if (!valid_env_name(name)) return std::nullopt;
            if (auto v = env(set_name(name))) st.last_set[name] = *v;
            continue;
        }
        auto eq = field.find('=');
        if (eq == std::string::npos) return std::nullopt;
        auto name = field.substr(0, eq);
        auto flag = field.substr(eq + 1);
        if (!valid_env_name(name) || (flag != "+" && flag != "-") || st.saved.count(name)) return std::nullopt;
        st.saved[name] = flag == "+" ? std::optional<std::string>(env(was_name(name)).value_or("")) : std::nullopt;
        st.order.push_back(name);
    }
    return st;
}

void put_state(EnvDiff& out, const std::string& name, std::optional<std::string> value) {
    out.edits.push_back({name, EnvOp::state, std::move(value)});
}

// The edits that store `st` in the environment in place of `before`.
void write_state(const State& st, const State& before, const EnvReader& env, EnvDiff& out) {
    std::string meta = "v2";
    for (const auto& name : st.order) meta += ";" + name + (st.saved.at(name) ? "=+" : "=-");
    for (const auto& [name, v] : st.last_set) meta += ";~" + name;
    auto put = [&](const std::string& name, const std::optional<std::string>& value) {
        if (env(name) != value) put_state(out, name, value);
    };
    for (const auto& name : st.order) put(was_name(name), st.saved.at(name));
    for (const auto& [name, v] : st.last_set) put(set_name(name), v);
    for (const auto& [name, v] : before.last_set)
        if (!st.last_set.count(name)) put(set_name(name), std::nullopt);
    put_state(out, state_var, meta);
}

// The edits that remove every trace of the state.
void clear_state(const State& st, const EnvReader& env, EnvDiff& out) {
    for (const auto& name : st.order)
        if (env(was_name(name))) put_state(out, was_name(name), std::nullopt);
    for (const auto& [name, v] : st.last_set)
        if (env(set_name(name))) put_state(out, set_name(name), std::nullopt);
    put_state(out, state_var, std::nullopt);
}

// A list variable restored after the user changed it since `use`: the
// original list, minus the entries the user removed since, plus the entries
// the user added since (at the front, at the end, or after the original
// entry they follow); the entries cudaenv put first go. Entries `use` took
// out of the original (other CUDA installs) come back.
std::string merge_back(const std::string& current, const std::string& we_set, const std::optional<std::string>& original,
                       PathStyle style) {
    auto cur = split_path_list(current, style);
    auto ours = split_path_list(we_set, style);
    auto orig = original ? split_path_list(*original, style) : std::vector<std::string>{};
    auto find = [&](const std::vector<std::string>& list, const std::string& e) -> std::optional<size_t> {
        for (size_t i = 0; i < list.size(); ++i)
            if (same_path_entry(list[i], e, style)) return i;
        return std::nullopt;
    };
    std::vector<std::string> out;
    for (const auto& e : orig)
        if (!find(ours, e) || find(cur, e)) out.push_back(e);  // drop what the user removed
    const auto kept = out;
    // The entries cudaenv put first: one occurrence each in `cur` is ours; a
    // second one (the user appended a toolkit's bin themselves) is the user's.
    std::vector<bool> by_us(cur.size(), false);
    for (const auto& e : ours) {
        if (find(orig, e)) continue;
        for (size_t i = 0; i < cur.size(); ++i)
            if (!by_us[i] && same_path_entry(cur[i], e, style)) {
                by_us[i] = true;
                break;
            }
    }
    // Entries after the last original one in `cur` were appended by the user.
    size_t last_anchor = 0;
    bool any_anchor = false;
    for (size_t i = 0; i < cur.size(); ++i)
        if (!by_us[i] && find(kept, cur[i])) {
            last_anchor = i;
            any_anchor = true;
        }
    size_t insert_at = 0;
    for (size_t i = 0; i < cur.size(); ++i) {
        const auto& e = cur[i];
        if (by_us[i]) continue;
        if (auto at = find(out, e)) {
            insert_at = std::max(insert_at, *at + 1);
        } else if (any_anchor && i > last_anchor) {
            out.push_back(e);
        } else {
            out.insert(out.begin() + static_cast<std::ptrdiff_t>(insert_at++), e);
        }
    }
    return join_path_list(out, style);
}

}  // namespace

bool valid_env_name(std::string_view n) {
    if (n.empty() || n.size() > 64 || (n[0] >= '0' && n[0] <= '9')) return false;
    for (char c : n)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

PairEnv pair_env(const DetectedPair& pair, const std::string& spec) {
    PairEnv e;
    e.spec = spec;
    e.cuda_root = fsx::to_utf8(pair.toolkit.root);
    e.cuda_version = pair.toolkit.version;
    if (!pair.toolkit.nvcc.empty()) e.nvcc = fsx::to_utf8(pair.toolkit.nvcc);
    for (const auto& d : pair.toolkit.bin_dirs) e.path_dirs.push_back(fsx::to_utf8(d));
    for (const auto& d : pair.toolkit.lib_dirs) e.lib_dirs.push_back(fsx::to_utf8(d));
    // The folders a Windows DLL of the pair is in (bin, CUDA 13's bin\x64, cuDNN's bin or bin\<cuda>\x64).
    if (pair.toolkit.windows)
        for (const auto& d : pair.toolkit.bin_dirs) e.dll_dirs.push_back(fsx::to_utf8(d));
    if (pair.cudnn) {
        e.cudnn_root = fsx::to_utf8(pair.cudnn->root);
        for (const auto& d : pair.cudnn->bin_dirs) e.path_dirs.push_back(fsx::to_utf8(d));
        for (const auto& d : pair.cudnn->lib_dirs) e.lib_dirs.push_back(fsx::to_utf8(d));
        if (pair.cudnn->windows)
            for (const auto& d : pair.cudnn->bin_dirs) e.dll_dirs.push_back(fsx::to_utf8(d));
    }
    return e;
}

std::string dll_dirs_value(const std::vector<std::string>& dirs) {
    std::vector<std::string> quoted;
    for (const auto& d : dirs) quoted.push_back(d.find(';') == std::string::npos ? d : "\"" + d + "\"");
    return join_path_list(quoted, PathStyle::windows);
}

bool is_cuda_entry(const std::string& entry, const std::vector<std::string>& roots, PathStyle style) {
    for (const auto& r : roots)
        if (path_entry_under(entry, r, style)) return true;
    auto key = path_entry_key(entry, style);
    if (style == PathStyle::windows) {
        return key.find("\\nvidia gpu computing toolkit\\cuda\\v") != std::string::npos ||
               key.find("\\nvidia\\cudnn\\v") != std::string::npos;
    }
    // /usr/local/cuda, /usr/local/cuda-12.6, /opt/cuda12 and what is below them,
    // but not /opt/cudaenv or /usr/local/cudatools (other programs).
    for (std::string_view place : {"/usr/local/cuda", "/opt/cuda"}) {
        if (!key.starts_with(place)) continue;
        auto rest = std::string_view(key).substr(place.size());
        if (rest.empty() || rest[0] == '/') return true;
        if ((rest[0] == '-' || rest[0] == '_' || rest[0] == '.') && rest.size() > 1) rest.remove_prefix(1);
        if (rest[0] >= '0' && rest[0] <= '9') return true;
    }
    return false;
}

std::vector<std::string> known_roots(const std::vector<fs::path>& own_dirs, const std::vector<ToolkitRecord>& toolkits,
                                     const std::vector<CudnnRecord>& cudnns) {
    // Never treat a shared system folder as a root (a system cuDNN lives in /usr).
    // Compared as text, normalized once: this runs on every activation.
    std::vector<fs::path::string_type> system_dirs;
    for (const auto& s : platform::system_library_dirs()) system_dirs.push_back(fsx::absolute_normal(s).native());
    for (const char* s : {"/usr", "/usr/local", "/opt"}) system_dirs.push_back(fs::path(s).native());
    auto unsafe = [&](const fs::path& p) {
        auto n = fsx::absolute_normal(p);
        if (n == n.root_path()) return true;
        return std::find(system_dirs.begin(), system_dirs.end(), n.native()) != system_dirs.end();
    };
    std::vector<std::string> roots;
    for (const auto& d : own_dirs) roots.push_back(fsx::to_utf8(d));
    for (const auto& t : toolkits)
        if (!unsafe(t.path)) roots.push_back(fsx::to_utf8(t.path));
    for (const auto& c : cudnns)
        if (!unsafe(c.path)) roots.push_back(fsx::to_utf8(c.path));
    return roots;
}

void put_first(EnvDiff& diff, const std::string& var, const std::string& dir, PathStyle style) {
    auto it = std::find_if(diff.edits.begin(), diff.edits.end(),
                           [&](const EnvEdit& e) { return e.name == var && e.op == EnvOp::prepend; });
    if (it == diff.edits.end()) return;
    auto entries = it->value ? split_path_list(*it->value, style) : std::vector<std::string>{};
    std::erase(entries, dir);
    entries.insert(entries.begin(), dir);
    it->value = join_path_list(entries, style);
    std::erase(it->prepended, dir);
    it->prepended.insert(it->prepended.begin(), dir);
    it->changed = true;
    // The value cudaenv last set, which deactivate compares with.
    for (auto& e : diff.edits)
        if (e.op == EnvOp::state && e.name == set_name(var)) {
            e.value = it->value;
            e.changed = true;
        }
}

bool set_by_cudaenv(const EnvReader& env, const std::string& name) {
    auto value = env(name);
    return value && valid_env_name(name) && env(set_name(name)) == value;
}

EnvDiff plan_use(const std::optional<PairEnv>& pair, const std::string& spec, const EnvReader& env,
                 const OwnedEntry& owned, PathStyle style) {
    const State before = read_state(env).value_or(State{});
    State st = before;
    std::vector<std::string> lists = {"PATH"};
    if (style == PathStyle::posix) lists.push_back("LD_LIBRARY_PATH");
    // A variable the user changed since the last `use`: their change becomes
    // part of what `deactivate` restores, instead of being lost with ours
    // (a list merged entry by entry, any other variable as they set it).
    for (auto last = st.last_set.begin(); last != st.last_set.end();) {
        const auto& var = last->first;
        auto cur = env(var);
        if (!st.saved.count(var) || cur == last->second || (is_list_var(var) && !cur)) {
            ++last;
        } else if (is_list_var(var)) {
            st.saved[var] = merge_back(*cur, last->second, st.saved[var], style);
            last->second = *cur;
            ++last;
        } else {
            st.saved[var] = cur;
            if (cur) {
                last->second = *cur;
                ++last;
            } else {
                last = st.last_set.erase(last);
            }
        }
    }
    auto original = [&](const std::string& name) -> std::optional<std::string> {
        if (auto it = st.saved.find(name); it != st.saved.end()) return it->second;
        return env(name);
    };
    EnvDiff diff;
    std::map<std::string, size_t> at;  // name -> its edit
    auto want = [&](const std::string& name, std::optional<std::string> value, EnvOp op) -> EnvEdit& {
        auto [it, fresh] = at.try_emplace(name, diff.edits.size());
        if (fresh) diff.edits.push_back({name, op});
        auto& e = diff.edits[it->second];
        e.op = op;
        e.value = std::move(value);
        return e;
    };
    // A list that stays unset: part of the intent, nothing to apply or restore.
    std::vector<std::string> intent_only;
    // A Visual Studio toolset entered now or by an earlier `use` of this
    // session: lists are planned from their values before cudaenv (with the
    // user's later changes merged in), so no toolset's entries stay behind
    // when another toolset, or none, follows.
    const ToolsetEnv* toolset = pair && pair->toolset ? &*pair->toolset : nullptr;
    const bool toolset_involved = toolset || st.saved.count(msvc_var);
    if (toolset)
        for (const auto& l : toolset->lists)
            if (std::find(lists.begin(), lists.end(), l.name) == lists.end()) lists.push_back(l.name);

    for (const auto& var : lists) {
        if (!pair) {
            // "system": the list as it was before cudaenv, keeping later user changes.
            auto cur = env(var);
            auto last = st.last_set.find(var);
            if (last != st.last_set.end() && cur && *cur != last->second)
                want(var, merge_back(*cur, last->second, original(var), style), EnvOp::restore);
            else
                want(var, original(var), EnvOp::restore);
            continue;
        }
        auto cur = env(var);
        std::vector<std::string> front;
        if (var == "PATH") front = pair->path_dirs;
        if (var == "LD_LIBRARY_PATH") front = pair->lib_dirs;
        const ToolsetEnv::List* tl = nullptr;
        if (toolset)
            for (const auto& l : toolset->lists)
                if (l.name == var) tl = &l;
        if (tl) front.insert(front.end(), tl->front.begin(), tl->front.end());
        auto edit = edit_path_list((toolset_involved ? original(var) : cur).value_or(""), front, owned, style);
        if (tl && !tl->back.empty()) {
            // What vcvarsall appends (its CMake, Ninja) goes last, once.
            auto entries = split_path_list(edit.value, style);
            for (const auto& b : tl->back)
                if (std::none_of(entries.begin(), entries.end(),
                                 [&](const std::string& e) { return same_path_entry(e, b, style); }))
                    entries.push_back(b);
            edit.value = join_path_list(entries, style);
        }
        // An empty list is unset, never set empty: POSIX reads an empty PATH as the current folder.
        std::optional<std::string> value;
        if (!edit.value.empty()) value = std::move(edit.value);
        if (!value && !cur && !st.saved.count(var)) intent_only.push_back(var);
        auto& e = want(var, std::move(value), EnvOp::prepend);
        e.prepended = std::move(edit.prepended);
        e.removed = std::move(edit.removed);
    }
    if (pair) {
        auto set_or_unset = [&](const std::string& name, const std::optional<std::string>& v) {
            want(name, v, v ? EnvOp::set : EnvOp::unset);
        };
        set_or_unset("CUDA_PATH", pair->cuda_root);
        set_or_unset("CUDA_HOME", pair->cuda_root);
        set_or_unset("CUDNN_PATH", pair->cudnn_root);
        set_or_unset("CUDNN_HOME", pair->cudnn_root);
        set_or_unset("CUDACXX", pair->nvcc);
        set_or_unset("CUDAToolkit_ROOT", pair->cuda_root);
        for (const auto& [name, value] : pair->defaults)
            if (!original(name)) want(name, value, EnvOp::fallback);  // never over a value the user set
        if (style == PathStyle::windows) {
            set_or_unset("CUDA_PATH_V" + std::to_string(pair->cuda_version.major()) + "_" +
                             std::to_string(pair->cuda_version.minor()),
                         pair->cuda_root);
            set_or_unset(dll_dirs_var, pair->dll_dirs.empty() ? std::nullopt
                                                              : std::optional<std::string>(dll_dirs_value(pair->dll_dirs)));
        }
        if (toolset) {
            for (const auto& [name, value] : toolset->set) want(name, value, EnvOp::set);
            want(msvc_var, toolset->version, EnvOp::set);
        }
    }
    want("CUDAENV_VERSION", spec, EnvOp::set);

    if (const auto* path = diff.find("PATH");
        style == PathStyle::windows && path && path->value && utf16_length(*path->value) > cmd_path_limit)
        throw Error("the new PATH would be " + std::to_string(utf16_length(*path->value)) +
                        " characters; cmd.exe ignores a PATH longer than 8191",
                    "remove entries you no longer need from PATH, then try again");

    // Variables touched by an earlier `use` but not by this one go back to how they were.
    for (const auto& name : st.order)
        if (!at.count(name)) want(name, st.saved.at(name), EnvOp::restore);

    for (auto& e : diff.edits) {
        const auto cur = env(e.name);
        e.changed = e.value != cur;
        if (std::find(intent_only.begin(), intent_only.end(), e.name) != intent_only.end()) continue;
        if (!st.saved.count(e.name)) {
            st.saved[e.name] = cur;
            st.order.push_back(e.name);
        }
        // What cudaenv set, so a later `deactivate` can tell a value the user set since.
        if (e.name != "CUDAENV_VERSION" && e.value) st.last_set[e.name] = *e.value;
        else st.last_set.erase(e.name);
    }
    write_state(st, before, env, diff);
    return diff;
}

EnvDiff plan_deactivate(const EnvReader& env, PathStyle style) {
    auto st = read_state(env);
    if (!st) return {};
    EnvDiff out;
    for (const auto& name : st->order) {
        std::optional<std::string> value = st->saved.at(name);
        auto last = st->last_set.find(name);
        auto cur = env(name);
        // Changed by the user since `use`: keep their change.
        if (last != st->last_set.end() && cur != last->second) {
            if (!is_list_var(name)) value = cur;
            else if (cur) value = merge_back(*cur, last->second, value, style);
        }
        if (value != cur) out.edits.push_back({name, EnvOp::restore, value});
    }
    clear_state(*st, env, out);
    return out;
}

bool same_env_name(std::string_view a, std::string_view b, PathStyle style) {
    return style == PathStyle::windows ? str::iequals_ascii(a, b) : a == b;
}

void apply_changes(EnvBlock& env, const std::vector<EnvChange>& changes, PathStyle style) {
    for (const auto& c : changes) {
        std::erase_if(env, [&](const auto& kv) { return same_env_name(kv.first, c.name, style); });
        if (c.value) env.emplace_back(c.name, *c.value);
    }
}

EnvBlock Activation::applied_to(EnvBlock env, PathStyle style) const {
    apply_changes(env, diff.changes(), style);
    return env;
}

std::string Activation::json() const {
    nlohmann::json set = nlohmann::json::object(), prepend = nlohmann::json::object();
    auto unset = nlohmann::json::array();
    for (const auto& e : diff.edits) {
        if (e.op == EnvOp::prepend) prepend[e.name] = e.prepended;
        if (!e.changed) continue;
        if (e.value) set[e.name] = *e.value;
        else unset.push_back(e.name);
    }
    // JSON holds only UTF-8: a byte that is not (a variable of the caller's
    // environment may hold one) is written as U+FFFD rather than failing.
    return nlohmann::json{{"prepend", prepend}, {"set", set}, {"unset", unset}}.dump(
        2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace cudaenv
