#include "core/pathlist.hpp"

#include "platform/platform.hpp"
#include "util/strings.hpp"

namespace cudaenv {

PathStyle native_path_style() { return path_style_for(platform::is_windows); }

char list_separator(PathStyle style) { return style == PathStyle::windows ? ';' : ':'; }

std::vector<std::string> split_path_list(std::string_view list, PathStyle style) {
    std::vector<std::string> out;
    if (list.empty()) return out;
    if (style == PathStyle::posix) return str::split(list, ':');
    std::string cur;
    bool quoted = false;
    for (char c : list) {
        if (c == '"') quoted = !quoted;
        if (c == ';' && !quoted) {
            out.push_back(std::move(cur));
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(std::move(cur));
    return out;
}

std::string join_path_list(const std::vector<std::string>& entries, PathStyle style) {
    return str::join(entries, std::string(1, list_separator(style)));
}

std::string path_entry_key(std::string_view entry, PathStyle style) {
    std::string k;
    if (style == PathStyle::windows) {
        for (char c : entry)
            if (c != '"') k += (c == '/') ? '\\' : c;
        k = str::to_lower_ascii(k);
        // Keep the root of a drive ("c:\") whole.
        while (k.size() > 1 && k.back() == '\\' && !(k.size() == 3 && k[1] == ':')) k.pop_back();
    } else {
        k = entry;
        while (k.size() > 1 && k.back() == '/') k.pop_back();
    }
    return k;
}

bool same_path_entry(std::string_view a, std::string_view b, PathStyle style) {
    return path_entry_key(a, style) == path_entry_key(b, style);
}

namespace {

bool under(std::string_view e, std::string_view r, char sep) {
    if (r.empty() || e.empty()) return false;
    if (e == r) return true;
    if (r.back() == sep) return e.starts_with(r);
    return e.size() > r.size() && e.starts_with(r) && e[r.size()] == sep;
}

// path_entry_key's POSIX form, as a view: trailing slashes off.
std::string_view posix_key(std::string_view s) {
    while (s.size() > 1 && s.back() == '/') s.remove_suffix(1);
    return s;
}

}  // namespace

bool path_entry_under(std::string_view entry, std::string_view root, PathStyle style) {
    // Asked for every PATH entry against every adopted folder on each switch:
    // the POSIX key needs no copy.
    if (style == PathStyle::posix) return under(posix_key(entry), posix_key(root), '/');
    return under(path_entry_key(entry, style), path_entry_key(root, style), '\\');
}

PathListEdit edit_path_list(std::string_view current, const std::vector<std::string>& prepend,
                            const std::function<bool(const std::string&)>& owned, PathStyle style) {
    PathListEdit r;
    auto already = [&](const std::string& e) {
        for (const auto& o : r.prepended)
            if (same_path_entry(o, e, style)) return true;
        return false;
    };
    for (const auto& p : prepend)
        if (!p.empty() && !already(p)) r.prepended.push_back(p);
    std::vector<std::string> out = r.prepended;
    for (auto& e : split_path_list(current, style)) {
        if (e.empty() || owned(e)) {
            r.removed.push_back(std::move(e));
            continue;
        }
        if (!already(e)) out.push_back(std::move(e));
    }
    r.value = join_path_list(out, style);
    return r;
}

std::string rewrite_path_list(std::string_view current, const std::vector<std::string>& prepend,
                              const std::function<bool(const std::string&)>& owned, PathStyle style) {
    return edit_path_list(current, prepend, owned, style).value;
}

}  // namespace cudaenv
