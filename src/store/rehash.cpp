#include "store/rehash.hpp"

#include <cctype>
#include <spdlog/spdlog.h>

#include "core/detect.hpp"
#include "store/detect_cache.hpp"
#include "platform/install_dirs.hpp"
#include "platform/platform.hpp"
#include "util/embedded.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// cudaenv-shim is small in a Release build, but a RelWithDebInfo one (the
// default preset) carries tens of MB of debug information.
constexpr size_t max_program_bytes = size_t{512} << 20;

// The tool name of an executable in a toolkit bin folder, or "".
std::string tool_name(const fs::path& file) {
    auto name = toolkit_tool_of(file, native_path_style());
    return !name.empty() && platform::is_executable(file) ? name : std::string();
}

bool is_shim_file(const fs::path& p, const fs::path& program) {
    std::error_code ec;
    if (fs::equivalent(p, program, ec)) return true;
    if (!fsx::is_file(p)) return false;
    auto text = fsx::read_file(p, max_program_bytes);
    return text && text->find(shim_marker) != std::string::npos;
}

// True when `p` is already this build of the shim, as a copy of its own: a
// hard link to the program (what rehash made before) is the program's own
// inode, so writing into it, or `chmod -R` on the store, would change the
// installed cudaenv-shim of every user; it is replaced by a copy.
bool up_to_date(const fs::path& p, const fs::path& program, const std::string& program_bytes) {
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(p, ec)) || fs::equivalent(p, program, ec)) return false;
    if (fs::file_size(p, ec) != program_bytes.size() || ec) return false;
    auto text = fsx::read_file(p, max_program_bytes);
    return text && *text == program_bytes && platform::is_executable(p);
}

// Places a copy of the shim program (its bytes, read once) at `target`
// through a temporary name, so a tool call never sees a half-written file.
// Never a hard link: that would make the store's file the installed program
// itself (see up_to_date). Written by cudaenv, not std::filesystem::copy_file,
// which reports a short copy on a full disk as "Input/output error".
void place_shim(const fs::path& target, const std::string& program_bytes) {
    auto tmp = target;
    tmp += ".rehash-tmp";
    std::error_code ec;
    fs::remove(tmp, ec);
    ec.clear();
    fsx::write_file_atomic(tmp, program_bytes, fsx::Durability::cache);  // its error names the file and errno
    platform::make_executable(tmp);
    fs::rename(tmp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw Error("cannot write the shim '" + fsx::to_utf8(target) + "': " + ec.message(),
                    platform::running_programs_locked
                        ? "close programs that are running that tool, then run `cudaenv rehash`"
                        : "check that you own the store (CUDAENV_ROOT), then run `cudaenv rehash`");
    }
}

}  // namespace

const std::set<std::string>& nvidia_tool_names() {
    static const std::set<std::string> names = [] {
        std::set<std::string> out;
        for (const auto& line : str::split(std::string(embedded::find("toolkit_tools.txt").value_or("")), '\n')) {
            if (line.empty() || line[0] == '#') continue;
            auto words = str::split(line, ' ');
            for (size_t i = 1; i < words.size(); ++i)
                if (!words[i].empty()) out.insert(words[i]);
        }
        return out;
    }();
    return names;
}

std::string tool_name_of(const fs::path& argv0, PathStyle style) {
    auto name = fsx::to_utf8(argv0.filename());
    if (style == PathStyle::windows) {
        // argv[0] may still hold a Windows path on a POSIX build (tests): take its last part.
        if (auto cut = name.find_last_of("\\/"); cut != std::string::npos) name = name.substr(cut + 1);
        if (str::to_lower_ascii(name).ends_with(".exe")) name.resize(name.size() - 4);
    }
    return name;
}

std::optional<fs::path> find_tool_in(const std::vector<fs::path>& dirs, const std::string& tool, PathStyle style) {
    for (const auto& d : dirs) {
        auto p = d / fsx::from_utf8(tool);
        if (platform::is_executable(p)) return p;
        if (style == PathStyle::windows) {
            auto exe = d / fsx::from_utf8(tool + ".exe");
            if (platform::is_executable(exe)) return exe;
        }
    }
    return std::nullopt;
}

std::string toolkit_tool_of(const fs::path& file, PathStyle style) {
    auto name = fsx::to_utf8(file.filename());
    if (style == PathStyle::windows) {
        // Tools are .exe files; bin also holds DLLs and .bat helpers that no shim should shadow.
        if (!str::to_lower_ascii(name).ends_with(".exe")) return {};
        name = str::to_lower_ascii(tool_name_of(file, style));
    }
    return nvidia_tool_names().count(name) ? name : std::string();
}

fs::path shim_program_path() { return platform::sibling_program("cudaenv-shim"); }

std::set<std::string> toolkit_tools(Store& store) {
    std::set<std::string> tools;
    // Through the detection kept in the store: add, discover --add and install
    // run this, so a folder is detected when it is adopted or installed.
    DetectionCache cache(store);
    for (const auto& rec : store.toolkits()) {
        auto tk = cache.toolkit(rec.path);
        if (!tk) continue;  // gone: `list` and `use` report it
        for (const auto& dir : tk->bin_dirs) {
            std::error_code ec;
            for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
                if (auto name = tool_name(it->path()); !name.empty()) tools.insert(name);
        }
    }
    return tools;
}

RehashResult rehash(Store& store, const fs::path& program) {
    if (!fsx::is_file(program))
        throw Error("the shim program '" + fsx::to_utf8(program) + "' is missing",
                    "cudaenv-shim must be installed beside cudaenv; reinstall cudaenv");
    auto program_bytes = fsx::read_file(program, max_program_bytes);
    if (!program_bytes) throw Error("cannot read the shim program '" + fsx::to_utf8(program) + "'");

    // Shims are store files too: two rehashes at once would delete each
    // other's temporary files, and one working from an older config.toml
    // would remove the shims of a toolkit just added.
    auto lock = store.lock();
    RehashResult r;
    r.dir = store.shims_dir();
    ensure_writable_dir(r.dir);
    const std::string suffix = platform::exe_suffix();

    std::set<std::string> wanted;
    for (const auto& tool : toolkit_tools(store)) wanted.insert(tool + suffix);

    for (const auto& file : wanted) {
        auto target = r.dir / fsx::from_utf8(file);
        bool present = fsx::exists(target) || fs::is_symlink(fs::symlink_status(target));
        if (present && up_to_date(target, program, *program_bytes)) continue;
        if (present && !is_shim_file(target, program))
            throw Error("'" + fsx::to_utf8(target) + "' is in the way of the " + file + " shim and is not one",
                        "move that file out of the store's shims folder, then run `cudaenv rehash`");
        place_shim(target, *program_bytes);
        (present ? r.updated : r.added).push_back(file);
    }

    // Stale shims: ours (by content) but for a tool no toolkit has any more.
    std::vector<fs::path> stale;
    std::error_code ec;
    for (fs::directory_iterator it(r.dir, ec), end; !ec && it != end; it.increment(ec)) {
        auto name = fsx::to_utf8(it->path().filename());
        if (wanted.count(name) || str::to_lower_ascii(name).starts_with("cudaenv")) continue;  // session shims
        if (name.ends_with(".rehash-tmp") || is_shim_file(it->path(), program)) stale.push_back(it->path());
    }
    for (const auto& p : stale) {
        std::error_code rm;
        fs::remove(p, rm);
        if (rm) throw Error("cannot remove the stale shim '" + fsx::to_utf8(p) + "': " + rm.message());
        if (auto name = fsx::to_utf8(p.filename()); !name.ends_with(".rehash-tmp")) r.removed.push_back(name);
    }
    r.total = wanted.size();
    return r;
}

RehashResult rehash(Store& store) { return rehash(store, shim_program_path()); }

bool rehash_or_warn(Store& store) {
    try {
        {
            // The store changed: keep what every cuDNN holds too, for use/env/exec and the shims.
            DetectionCache cache(store);
            for (const auto& c : store.cudnns()) cache.cudnn(c.path, c.variant);
        }
        rehash(store);
        return true;
    } catch (const Error& e) {
        spdlog::warn("the tool shims were not updated: {}{}", e.what(), e.hint().empty() ? "" : " (" + e.hint() + ")");
        return false;
    }
}

}  // namespace cudaenv
