// `export msbuild`: a Directory.Build.props that points NVIDIA's MSBuild
// build customization (CUDA <x.y>.props, which reads CudaToolkitCustomDir
// before CUDA_PATH_V<x>_<y>) at the pair's toolkit, for every .vcxproj below
// it (MSBuild imports the nearest Directory.Build.props itself; docs/msvc.md).
// Only cudaenv's own block is written into an existing file: every byte
// outside it stays as it was, and a file cudaenv cannot place it in is left alone.
#include "core/line_endings.hpp"
#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;

const std::string props_block_begin = "<!-- >>> " + std::string(marker) + " msbuild`; re-running it rewrites this block >>> -->";
const char* props_block_end = "<!-- <<< cudaenv export <<< -->";
constexpr size_t max_props_bytes = 16u << 20;

// A value as MSBuild reads it back: its special characters (%, $, @, ', ;,
// *, ?, parentheses) as %XX escapes, then XML's. Off Windows also '\', which
// MSBuild there would take for a path separator and turn into '/'.
std::string msbuild_text(const std::string& value, PathStyle style) {
    const std::string_view special = style == PathStyle::windows ? "%$@';*?()" : "%$@';*?()\\";
    std::string out;
    for (unsigned char c : value) {
        if (special.find(static_cast<char>(c)) != std::string_view::npos) {
            static const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else if (c == '&') {
            out += "&amp;";
        } else if (c == '<') {
            out += "&lt;";
        } else if (c == '>') {
            out += "&gt;";
        } else if (c == '"') {
            out += "&quot;";
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

std::string with_separator(std::string dir, PathStyle style) {
    const char sep = style == PathStyle::windows ? '\\' : '/';
    if (dir.empty() || (dir.back() != sep && dir.back() != '/')) dir += sep;
    return dir;
}

// The block's lines, each ended by `eol`, indented by `indent`.
std::string block(const PairVars& p, PathStyle style, const std::string& indent, const std::string& eol) {
    const auto root = with_separator(p.cuda_root, style);
    const char sep = style == PathStyle::windows ? '\\' : '/';
    auto ext = root + "extras" + sep + "visual_studio_integration" + sep + "MSBuildExtensions" + sep;
    std::string out = indent + props_block_begin + eol;
    // A comment cannot hold "--".
    auto about = "cudaenv pair " + p.spec + "; CUDA " + p.cuda_version +
                 (p.cudnn_version.empty() ? "" : " with cuDNN " + p.cudnn_version);
    while (about.find("--") != std::string::npos) about = str::replace_all(about, "--", "- -");
    out += indent + "<!-- " + about + " -->" + eol;
    out += indent + "<PropertyGroup Label=\"cudaenv\">" + eol;
    // Read by NVIDIA's CUDA <x.y>.props/.targets before CUDA_PATH_V<x>_<y>.
    out += indent + "  <CudaToolkitCustomDir>" + msbuild_text(root, style) + "</CudaToolkitCustomDir>" + eol;
    // The pair's own build customization (visual_studio_integration), for a
    // project that imports CUDA <x.y>.props from the toolkit instead of
    // Visual Studio's BuildCustomizations folder.
    out += indent + "  <CudaenvBuildCustomizations>" + msbuild_text(ext, style) + "</CudaenvBuildCustomizations>" + eol;
    out += indent + "</PropertyGroup>" + eol;
    return out + indent + props_block_end + eol;
}

// The block's place in `text`: from the begin marker's line to the end of the end marker's.
std::optional<std::pair<size_t, size_t>> find_props_block(const std::string& text) {
    auto end = text.find(props_block_end);
    if (end == std::string::npos) return std::nullopt;
    auto begin = text.rfind(props_block_begin, end);
    if (begin == std::string::npos) return std::nullopt;
    begin = text.rfind('\n', begin);
    begin = begin == std::string::npos ? 0 : begin + 1;
    auto after = text.find('\n', end);
    return std::make_pair(begin, after == std::string::npos ? text.size() : after + 1);
}

}  // namespace

std::optional<std::string> msbuild_misread(std::string_view value, PathStyle) {
    if (!str::utf8_code_points(value)) return "bytes that are not UTF-8, which an XML file cannot hold";
    return std::nullopt;
}

std::string render_msbuild(const PairVars& p, const Options& o) {
    return "<Project>\n" + block(p, o.style, "  ", "\n") + "</Project>\n";
}

std::string merge_props(const std::string& existing, const PairVars& p, PathStyle style, const fs::path& file) {
    const auto where = "'" + fsx::to_utf8(file) + "'";
    const std::string eol = existing.find("\r\n") != std::string::npos ? "\r\n" : "\n";
    if (auto at = find_props_block(existing)) {
        // Indented as the block was, with the line endings it has: the file's may
        // have changed since (an LF file whose `...\r</Project>` line the block was
        // put on now holds one CRLF), and exporting the same pair again must
        // not change a byte.
        auto line = existing.substr(at->first, existing.find(props_block_begin, at->first) - at->first);
        const auto old_block = std::string_view(existing).substr(at->first, at->second - at->first);
        const std::string block_eol(eol_bytes(line_ending_of(old_block)));
        return existing.substr(0, at->first) + block(p, style, line, block_eol) + existing.substr(at->second);
    }
    if (existing.find(props_block_begin) != std::string::npos || existing.find(props_block_end) != std::string::npos)
        throw Error(where + " has only one of cudaenv's two marker lines; it was left as it was",
                    "remove the line that is left, then export again");
    auto close = existing.rfind("</Project>");
    if (close == std::string::npos || existing.find("</Project>", close + 1) != std::string::npos)
        throw Error(where + " has no </Project> line to put cudaenv's block before; it was left as it was",
                    "write the file as <Project> ... </Project>, or export into another folder");
    // Before the line that closes the project, whatever is before it on that line stays.
    auto line_start = existing.rfind('\n', close);
    line_start = line_start == std::string::npos ? 0 : line_start + 1;
    // `...</PropertyGroup></Project>` on one line: the block goes between them, on lines of its own.
    const bool shared_line = !str::trim(std::string_view(existing).substr(line_start, close - line_start)).empty();
    if (shared_line) return existing.substr(0, close) + eol + block(p, style, "  ", eol) + existing.substr(close);
    return existing.substr(0, line_start) + block(p, style, "  ", eol) + existing.substr(line_start);
}

std::string write_msbuild(const std::vector<PairVars>& pairs, const Options& o) {
    if (pairs.size() != 1) throw UsageError("`export msbuild` writes one pair", "name one spec");
    fs::path file = o.out ? *o.out : o.cwd / "Directory.Build.props";
    std::error_code ec;
    if (fs::is_directory(file, ec)) file /= "Directory.Build.props";
    fsx::UserFileLock lock(file);
    auto old = fsx::read_user_file(file, max_props_bytes, "msbuild");
    auto text = old && !old->empty() ? merge_props(*old, pairs.front(), o.style, file) : render_msbuild(pairs.front(), o);
    fsx::write_user_file(file, text);
    say_wrote("CudaToolkitCustomDir of " + pairs.front().spec, file);
    return {};
}

}  // namespace cudaenv::exporting
