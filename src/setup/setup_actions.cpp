#include "setup/setup_actions.hpp"

#include <algorithm>
#include <set>

#include "core/pathlist.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

namespace fs = std::filesystem;

std::string marker_hint() {
    return "remove the lines from `" + std::string(block_begin) + "` to `" + std::string(block_end) + "` yourself";
}

// The file a profile path stands for, refusing what setup must not touch.
SetupHost::FileState usable(SetupSession& s, const fs::path& path, bool must_write) {
    auto st = s.host.inspect(path);
    auto name = s.host.show(path);
    if (st.kind == SetupHost::Kind::dangling_link)
        throw Error(name + " is a link to " + s.host.show(st.target) + ", which does not exist",
                    "create " + s.host.show(st.target) + " or remove the link, then run `cudaenv setup` again");
    if (st.kind == SetupHost::Kind::other) throw Error(name + " is not a regular file", "setup edits only a regular file (or a link to one)");
    if (must_write && st.kind == SetupHost::Kind::file && st.read_only)
        throw Error(name + " is read-only: cudaenv leaves it as it is",
                    "make it writable (chmod u+w " + s.host.show(st.target) + ") and run the command again");
    return st;
}

void remove_created_dirs(SetupSession& s, const std::vector<std::string>& dirs) {
    for (auto it = dirs.rbegin(); it != dirs.rend(); ++it) s.host.remove_dir_if_empty(fsx::from_utf8(*it));
}

void drop(SetupRecord& rec, const std::string& path) {
    std::erase_if(rec.profiles, [&](const ProfileRecord& p) { return p.path == path; });
}

}  // namespace

void add_profile_block(SetupSession& s, const ProfileChange& change) {
    auto key = fsx::to_utf8(change.path);
    auto name = s.host.show(change.path);
    auto st = usable(s, change.path, true);
    bool exists = st.kind == SetupHost::Kind::file;
    std::string text = exists ? s.host.read(st.target) : std::string();

    auto ending = line_ending_of(text);
    if (!change.reads.accepts(ending))
        throw Error(name + " has " + std::string(line_ending_name(ending)) + " line endings, which " + change.shell +
                        " cannot read: lines added there would not run",
                    "convert it to Unix line endings (dos2unix " + s.host.show(st.target) + ") and run setup again");
    auto eol = exists ? eol_bytes(ending) : std::string_view("\n");
    auto block = render_block(change.lines, eol);

    auto* rec = s.record.find(key);
    if (rec && rec->inserted) {
        auto where = locate(text, *rec->inserted);
        if (where.state != Found::absent) {
            auto& ins = *rec->inserted;
            auto marker = ins.bytes.find(block_begin);
            auto prefix = ins.bytes.substr(0, marker == std::string::npos ? 0 : marker);
            if (ins.bytes.substr(prefix.size()) == block) {
                if (ins.offset != where.offset) {
                    ins.offset = where.offset;  // lines above it changed: keep the record true
                    s.save();
                }
                s.out << name << ": already set up\n";
                return;
            }
            if (where.state == Found::ambiguous)
                throw Error(name + " holds the cudaenv block setup wrote more than once", marker_hint() +
                            " where you copied them, then run setup again");
            Insertion updated{where.offset, prefix + block};
            std::string after = text.substr(0, where.offset) + updated.bytes +
                                text.substr(where.offset + ins.bytes.size());
            ins = updated;
            s.save();
            s.host.rewrite(st.target, after);
            s.out << name << ": updated the cudaenv block\n";
            return;
        }
        if (has_begin_marker(text))
            throw Error("the cudaenv block in " + name + " was edited since setup wrote it",
                        marker_hint() + ", then run setup again");
        drop(s.record, key);  // the user took it out: start again
        rec = nullptr;
    }

    if (auto pos = text.find(block); pos != std::string::npos) {
        // Setup's own block whose record was lost (a reset store, cudaenv 0.1).
        ProfileRecord adopted{key, change.shell, false, {}, Insertion{pos, block}};
        if (rec) *rec = adopted;
        else s.record.profiles.push_back(adopted);
        s.save();
        s.out << name << ": already set up\n";
        return;
    }
    if (has_begin_marker(text))
        s.out << name << ": note: a `" << block_begin << "` line setup did not write stays as it is\n";

    ProfileRecord pr{key, change.shell, !exists, {}, append_insertion(text, block, eol)};
    std::vector<fs::path> missing;
    if (!exists) {
        for (auto d = change.path.parent_path(); !d.empty() && !s.host.dir_exists(d); d = d.parent_path()) {
            missing.insert(missing.begin(), d);
            if (d == d.parent_path()) break;
        }
        for (const auto& d : missing) pr.created_dirs.push_back(fsx::to_utf8(d));
        if (change.bom_when_created) pr.inserted->bytes.insert(0, utf8_bom);
    }
    if (rec) *rec = pr;
    else s.record.profiles.push_back(pr);
    s.save();
    if (exists) {
        s.host.rewrite(st.target, apply_insertion(text, *pr.inserted));
    } else {
        for (const auto& d : missing) s.host.create_dir(d);
        // A dangling link was refused above, so this creates a plain file.
        s.host.create(change.path, pr.inserted->bytes);
    }
    s.out << name << ": added the cudaenv block\n";
}

void remove_profile_block(SetupSession& s, const ProfileRecord& pr, const std::vector<std::string>& expected_lines) {
    auto path = fsx::from_utf8(pr.path);
    auto name = s.host.show(path);
    auto st = usable(s, path, false);
    if (st.kind == SetupHost::Kind::absent) {
        remove_created_dirs(s, pr.created_dirs);
        drop(s.record, pr.path);
        s.out << name << ": gone already\n";
        return;
    }
    auto text = s.host.read(st.target);
    auto ins = pr.inserted;
    if (!ins) {
        auto block = render_block(expected_lines, eol_bytes(line_ending_of(text)));
        auto pos = text.find(block);
        if (pos == std::string::npos) {
            if (has_begin_marker(text))
                throw Error("the cudaenv block in " + name + " is not the one setup writes, so setup does not know "
                            "which of its lines are yours", marker_hint());
            drop(s.record, pr.path);
            s.out << name << ": no cudaenv block\n";
            return;
        }
        ins = Insertion{pos, block};
    }
    auto where = locate(text, *ins);
    if (where.state == Found::absent) {
        if (has_begin_marker(text))
            throw Error("the cudaenv block in " + name + " changed since setup wrote it; `setup --undo` removes only "
                        "what setup wrote, and that is no longer there as it was",
                        marker_hint() + " (keep what you added), then run `cudaenv setup --undo` again");
        remove_created_dirs(s, pr.created_dirs);
        drop(s.record, pr.path);
        s.out << name << ": the cudaenv block is gone already\n";
        return;
    }
    if (where.state == Found::ambiguous)
        throw Error(name + " holds the cudaenv block more than once and none where setup put it, so setup cannot "
                    "tell which one it wrote", marker_hint() + " for the copies, then run `cudaenv setup --undo` again");
    if (st.read_only) usable(s, path, true);  // throws the read-only error

    auto after = remove_at(text, *ins, where.offset);
    if (pr.created && after.empty()) {
        s.host.remove_file(st.target);
        remove_created_dirs(s, pr.created_dirs);
        s.out << name << ": removed (setup had created it)\n";
    } else {
        s.host.rewrite(st.target, after);
        s.out << name << ": removed the cudaenv block\n";
        if (has_begin_marker(after))
            s.out << name << ": note: another cudaenv block, not written by setup, stays as it is\n";
    }
    drop(s.record, pr.path);
    s.save();
}

void add_user_path(SetupSession& s, const std::string& shims, const std::optional<std::string>& install_entry) {
    auto cur = s.host.user_env_read("Path");
    auto value = cur ? cur->value : std::string();
    std::vector<std::string> wanted;
    if (install_entry) wanted.push_back(*install_entry);
    wanted.push_back(shims);
    auto entries = split_path_list(value, PathStyle::windows);
    auto has = [&](const std::string& e) {
        return std::any_of(entries.begin(), entries.end(),
                           [&](const std::string& x) { return same_path_entry(x, e, PathStyle::windows); });
    };
    std::string prefix;
    for (const auto& e : wanted)
        if (!has(e)) prefix += e + ";";
        else s.out << "user PATH: already has " << e << "\n";
    if (prefix.empty()) return;
    if (!s.record.win.path_entry && !s.record.win.install_entry) s.record.win.path_value_created = !cur;
    for (const auto& e : wanted)
        if (!has(e)) (e == shims ? s.record.win.path_entry : s.record.win.install_entry) = e;
    s.save();
    // A prefix, so every byte of the user's value stays as it was (the
    // registry value has no length limit that matters here: no truncation).
    auto updated = value.empty() ? prefix.substr(0, prefix.size() - 1) : prefix + value;
    s.host.user_env_write("Path", {updated, cur ? cur->expandable : true});
    s.host.broadcast_environment_change();
    s.out << "user PATH (HKCU\\Environment): added " << prefix.substr(0, prefix.size() - 1)
          << " first; new terminals and IDEs see it\n";
}

void remove_user_path(SetupSession& s) {
    auto& w = s.record.win;
    if (!w.path_entry && !w.install_entry) return;
    if (auto cur = s.host.user_env_read("Path")) {
        auto value = cur->value;
        bool changed = false;
        for (const auto& e : {w.install_entry, w.path_entry}) {
            if (!e) continue;
            if (value.starts_with(*e + ";")) {
                value.erase(0, e->size() + 1);
                changed = true;
            } else if (value == *e) {
                value.clear();
                changed = true;
            } else {
                // Moved since: take out its first occurrence as an entry.
                auto entries = split_path_list(value, PathStyle::windows);
                auto it = std::find_if(entries.begin(), entries.end(),
                                       [&](const std::string& x) { return same_path_entry(x, *e, PathStyle::windows); });
                if (it == entries.end()) continue;
                entries.erase(it);
                value = join_path_list(entries, PathStyle::windows);
                changed = true;
            }
            s.out << "user PATH: removed " << *e << "\n";
        }
        if (changed) {
            if (value.empty() && w.path_value_created) s.host.user_env_remove("Path");
            else s.host.user_env_write("Path", {value, cur->expandable});
            s.host.broadcast_environment_change();
        }
    }
    w.path_entry.reset();
    w.install_entry.reset();
    w.path_value_created = false;
    s.save();
}

void add_autorun(SetupSession& s, const std::string& line) {
    auto before = s.host.autorun_read();
    if (before && before->value.find(line) != std::string::npos) {
        s.out << "cmd AutoRun: already set up\n";
        return;
    }
    // The user's value keeps its type (REG_EXPAND_SZ or REG_SZ).
    platform::UserEnvValue value{before && !str::trim(before->value).empty() ? before->value + " & " + line : line,
                                 before && before->expandable};
    auto& w = s.record.win;
    if (!w.autorun_set) {
        w.autorun_existed = before.has_value();
        if (before) {
            w.autorun_before = before->value;
            w.autorun_before_expandable = before->expandable;
        }
        w.autorun_key_created = !s.host.cmd_key_exists();
    }
    w.autorun_set = value.value;
    s.save();
    s.host.autorun_write(value);
    s.out << "cmd AutoRun (HKCU\\Software\\Microsoft\\Command Processor): added the cudaenv line\n";
}

void remove_autorun(SetupSession& s, const std::string& line) {
    auto& w = s.record.win;
    if (!w.autorun_set) return;
    auto cur = s.host.autorun_read();
    if (cur && cur->value == *w.autorun_set) {
        std::optional<platform::UserEnvValue> before;
        if (w.autorun_existed) before = platform::UserEnvValue{w.autorun_before.value_or(""), w.autorun_before_expandable};
        s.host.autorun_write(before);
    } else if (cur && cur->value.find(line) != std::string::npos) {
        // Changed since: take out only our part.
        auto v = str::replace_all(cur->value, " & " + line, "");
        v = str::replace_all(v, line, "");
        s.host.autorun_write(str::trim(v).empty() && !w.autorun_existed
                                 ? std::nullopt
                                 : std::optional<platform::UserEnvValue>({v, cur->expandable}));
    }
    if (w.autorun_key_created) s.host.cmd_key_remove_if_empty();
    s.out << "cmd AutoRun: removed the cudaenv line\n";
    w.autorun_set.reset();
    w.autorun_before.reset();
    w.autorun_existed = false;
    w.autorun_key_created = false;
    s.save();
}

void install_programs(SetupSession& s, const InstallChange& change) {
    auto name = s.host.show(change.dir);
    auto st = s.host.inspect(change.dir);
    if (st.kind == SetupHost::Kind::file || st.kind == SetupHost::Kind::dangling_link)
        throw Error(name + " is a file, not a folder", "name a folder: cudaenv setup --install <folder>");
    if (s.record.install && !same_path_entry(s.record.install->dir, fsx::to_utf8(change.dir), PathStyle::windows))
        throw Error("cudaenv is installed in " + s.record.install->dir + " already",
                    "run `cudaenv setup --undo` first to move it");
    bool same = false;
    if (st.kind != SetupHost::Kind::absent) {
        std::error_code ec;
        same = std::filesystem::equivalent(change.from_dir, change.dir, ec) && !ec;
    }
    auto ours = [&](const std::string& f) {
        return s.record.install && std::find(s.record.install->files.begin(), s.record.install->files.end(), f) !=
                                       s.record.install->files.end();
    };
    if (!same)
        for (const auto& f : change.files)
            if (s.host.inspect(change.dir / fsx::from_utf8(f)).kind != SetupHost::Kind::absent && !ours(f))
                throw Error(s.host.show(change.dir / fsx::from_utf8(f)) + " exists and setup did not put it there",
                            "remove it or name another folder: cudaenv setup --install <folder>");

    auto before = s.record.install;
    InstallRecord rec = before.value_or(InstallRecord{fsx::to_utf8(change.dir), false, {}, {}});
    std::vector<std::filesystem::path> missing;
    for (auto d = change.dir; !d.empty() && !s.host.dir_exists(d); d = d.parent_path()) {
        missing.insert(missing.begin(), d);
        if (d == d.parent_path()) break;
    }
    // Folders of files below `dir` (lib/cudaenv), top down, so undo takes
    // them out after their files.
    std::set<std::filesystem::path> below;
    for (const auto& f : change.files)
        for (auto d = (change.dir / fsx::from_utf8(f)).parent_path(); d != change.dir && d.has_relative_path();
             d = d.parent_path())
            if (!s.host.dir_exists(d)) below.insert(d);
    rec.dir_created = rec.dir_created || !missing.empty();
    missing.insert(missing.end(), below.begin(), below.end());
    for (const auto& d : missing) rec.created_dirs.push_back(fsx::to_utf8(d));
    for (const auto& f : change.files)
        if (std::find(rec.files.begin(), rec.files.end(), f) == rec.files.end()) rec.files.push_back(f);
    s.record.install = rec;
    s.save();
    if (same) {
        s.out << name << ": the programs are there already\n";
        return;
    }
    std::vector<std::filesystem::path> copied;
    try {
        for (const auto& d : missing) s.host.create_dir(d);
        for (const auto& f : change.files) {
            auto to = change.dir / fsx::from_utf8(f);
            bool fresh = s.host.inspect(to).kind == SetupHost::Kind::absent;
            s.host.copy_file(change.from_dir / fsx::from_utf8(f), to);
            if (fresh) copied.push_back(to);
        }
    } catch (...) {
        // Take back what this call did: nothing changed.
        for (const auto& c : copied) {
            try {
                s.host.remove_file(c);
            } catch (const Error&) {
            }
        }
        for (auto it = missing.rbegin(); it != missing.rend(); ++it) s.host.remove_dir_if_empty(*it);
        s.record.install = before;
        s.save();
        throw;
    }
    s.out << name << ": " << (before ? "updated" : "copied") << " the programs\n";
}

void remove_programs(SetupSession& s) {
    if (!s.record.install) return;
    const auto& rec = *s.record.install;
    auto dir = fsx::from_utf8(rec.dir);
    for (const auto& f : rec.files) {
        auto p = dir / fsx::from_utf8(f);
        if (s.host.inspect(p).kind != SetupHost::Kind::absent) s.host.remove_file(p);
    }
    remove_created_dirs(s, rec.created_dirs);
    s.out << s.host.show(dir) << ": removed the programs setup copied\n";
    s.record.install.reset();
    s.save();
}

namespace {

PythonRecord* python_record(SetupRecord& rec, const std::string& site_packages) {
    for (auto& p : rec.pythons)
        if (same_path_entry(p.site_packages, site_packages, native_path_style())) return &p;
    return nullptr;
}

}  // namespace

void add_python_hook(SetupSession& s, const PythonHookChange& change) {
    const auto dir = fsx::to_utf8(change.site_packages);
    const auto name = s.host.show(change.site_packages);
    if (!s.host.dir_exists(change.site_packages))
        throw Error(name + " is not a folder, so the hook cannot go there",
                    "name the Python environment again: cudaenv setup --python <interpreter or venv>");
    const auto* before = python_record(s.record, dir);
    // Every file first: one that is not setup's (or changed since) stops setup before it writes.
    for (const auto& [file, bytes] : change.files) {
        auto path = change.site_packages / fsx::from_utf8(file);
        auto st = s.host.inspect(path);
        if (st.kind == SetupHost::Kind::absent) continue;
        std::optional<std::string> ours;
        if (before)
            for (size_t i = 0; i < before->files.size(); ++i)
                if (before->files[i] == file) ours = before->contents[i];
        if (!ours || st.kind != SetupHost::Kind::file)
            throw Error(s.host.show(path) + " exists and setup did not put it there",
                        "remove it if it is an old copy of cudaenv's hook, then run the command again");
        if (s.host.read(path) != *ours)
            throw Error(s.host.show(path) + " was changed since setup wrote it; it was left as it is",
                        "remove it, then run the command again");
    }
    PythonRecord rec;
    rec.interpreter = change.interpreter;
    rec.site_packages = dir;
    rec.cache_tag = change.cache_tag;
    rec.pycache_existed = before ? before->pycache_existed : s.host.dir_exists(change.site_packages / "__pycache__");
    for (const auto& [file, bytes] : change.files) {
        rec.files.push_back(file);
        rec.contents.push_back(bytes);
    }
    // Recorded first: an interrupted setup still knows what it may have written.
    std::erase_if(s.record.pythons, [&](const PythonRecord& p) { return same_path_entry(p.site_packages, dir, native_path_style()); });
    s.record.pythons.push_back(rec);
    s.save();
    for (const auto& [file, bytes] : change.files) {
        auto path = change.site_packages / fsx::from_utf8(file);
        if (s.host.inspect(path).kind == SetupHost::Kind::absent) s.host.create(path, bytes);
        else s.host.rewrite(path, bytes);
    }
    s.out << name << ": " << (before ? "updated" : "added") << " the DLL hook (" << str::join(rec.files, ", ") << ")\n";
}

void remove_python_hook(SetupSession& s, const PythonRecord& py) {
    const auto dir = fsx::from_utf8(py.site_packages);
    const auto name = s.host.show(dir);
    for (size_t i = 0; i < py.files.size(); ++i) {
        auto path = dir / fsx::from_utf8(py.files[i]);
        auto st = s.host.inspect(path);
        if (st.kind == SetupHost::Kind::absent) continue;
        if (st.kind != SetupHost::Kind::file || s.host.read(path) != py.contents[i])
            throw Error(s.host.show(path) + " was changed since setup wrote it; nothing was removed",
                        "remove the hook's files by hand (" + str::join(py.files, ", ") + ")");
    }
    for (const auto& file : py.files) {
        auto path = dir / fsx::from_utf8(file);
        if (s.host.inspect(path).kind != SetupHost::Kind::absent) s.host.remove_file(path);
        // The bytecode Python compiled from a module of ours goes with it.
        if (!file.ends_with(".py") || py.cache_tag.empty()) continue;
        const auto stem = file.substr(0, file.size() - 3) + "." + py.cache_tag;
        for (const char* opt : {"", ".opt-1", ".opt-2"}) {
            auto pyc = dir / "__pycache__" / fsx::from_utf8(stem + opt + ".pyc");
            if (s.host.inspect(pyc).kind == SetupHost::Kind::file) s.host.remove_file(pyc);
        }
    }
    if (!py.pycache_existed && s.host.dir_exists(dir / "__pycache__")) s.host.remove_dir_if_empty(dir / "__pycache__");
    std::erase_if(s.record.pythons, [&](const PythonRecord& p) { return p.site_packages == py.site_packages; });
    s.save();
    s.out << name << ": removed the DLL hook\n";
}

}  // namespace cudaenv
