#include "core/resolve.hpp"

#include <algorithm>
#include <fstream>

#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

namespace cudaenv {

namespace {

// What an error may quote of a version file's content: a short prefix with
// every byte that is not printable ASCII as '?', and only when the file is a
// regular file of that name itself. Through a link a .cudaenv can point at
// any readable file (a key, a token), and the error lands in a CI log.
std::string quoted_content(const std::filesystem::path& path, std::string_view s) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(std::filesystem::symlink_status(path, ec))) return "";
    constexpr size_t max_shown = 24;
    std::string out;
    for (char c : s.substr(0, max_shown)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
    if (s.size() > max_shown) out += "...";
    return ": '" + out + "'";
}

[[noreturn]] void bad_file(const std::filesystem::path& path, size_t line, const std::string& what) {
    throw Error(fsx::to_utf8(path) + ":" + std::to_string(line) + ": " + what,
                "a .cudaenv holds one spec such as 12.4, 11.8+8.9.7 or system; it is data and is never run");
}

// UTF-16 (either byte order) to UTF-8; an unpaired surrogate becomes U+FFFD.
std::string utf16_to_utf8(std::string_view bytes, bool big_endian) {
    std::string out;
    auto unit = [&](size_t i) {
        auto a = static_cast<unsigned char>(bytes[i]), b = static_cast<unsigned char>(bytes[i + 1]);
        return static_cast<char32_t>(big_endian ? (a << 8 | b) : (b << 8 | a));
    };
    auto put = [&](char32_t c) {
        if (c < 0x80) {
            out += static_cast<char>(c);
        } else if (c < 0x800) {
            out += static_cast<char>(0xC0 | (c >> 6));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            out += static_cast<char>(0xE0 | (c >> 12));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (c >> 18));
            out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (c & 0x3F));
        }
    };
    for (size_t i = 0; i + 1 < bytes.size(); i += 2) {
        char32_t c = unit(i);
        if (c >= 0xD800 && c <= 0xDBFF && i + 3 < bytes.size()) {
            char32_t lo = unit(i + 2);
            if (lo >= 0xDC00 && lo <= 0xDFFF) {
                put(0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00));
                i += 2;
                continue;
            }
        }
        put(c >= 0xD800 && c <= 0xDFFF ? 0xFFFD : c);
    }
    return out;
}

// The first max_version_file_bytes + 1 bytes of a regular file and its
// size (nullopt: it cannot be read). The whole file, through read_file's
// checks, when it is no larger than a version file may be; else only the
// head (a .cudaenv of 10 MB is refused by what its head holds).
std::optional<std::pair<std::string, unsigned long long>> read_head(const std::filesystem::path& p) {
    if (auto text = fsx::read_file(p, max_version_file_bytes)) {
        auto n = text->size();
        return std::pair{std::move(*text), static_cast<unsigned long long>(n)};
    }
    std::error_code ec;
    auto size = std::filesystem::file_size(p, ec);
    if (ec || size <= max_version_file_bytes) return std::nullopt;
    std::ifstream in(p, std::ios::binary);
    std::string head(max_version_file_bytes + 1, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    if (in.gcount() <= 0) return std::nullopt;
    head.resize(static_cast<size_t>(in.gcount()));
    return std::pair{std::move(head), static_cast<unsigned long long>(size)};
}

std::vector<std::string> lines_of(const std::string& text) {
    auto lines = str::split(version_file_text(text), '\n');
    for (auto& l : lines)
        if (!l.empty() && l.back() == '\r') l.pop_back();
    return lines;
}

}  // namespace

std::string version_file_text(std::string_view bytes) {
    // Windows PowerShell 5.1's `"12.4" > .cudaenv` writes UTF-16 LE with a BOM;
    // Notepad may write a UTF-8 BOM.
    if (bytes.starts_with(str::utf16le_bom)) return utf16_to_utf8(bytes.substr(str::utf16le_bom.size()), false);
    if (bytes.starts_with(str::utf16be_bom)) return utf16_to_utf8(bytes.substr(str::utf16be_bom.size()), true);
    if (bytes.starts_with(str::utf8_bom)) bytes.remove_prefix(str::utf8_bom.size());
    return std::string(bytes);
}

std::optional<NotAVersionFile> not_a_version_file(std::string_view head, unsigned long long size) {
    const bool utf16 = head.starts_with(str::utf16le_bom) || head.starts_with(str::utf16be_bom);
    // What the hooks read at most: one byte more than a file may hold.
    const size_t cap = utf16 ? max_utf16_version_file_bytes : max_version_file_bytes;
    const auto text = version_file_text(head.substr(0, cap + 1));
    if (auto nul = text.find('\0'); nul != std::string::npos)
        return NotAVersionFile{static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')) + 1,
                               std::string(utf16 ? "holds a NUL character" : "holds a NUL byte") +
                                   ", and a version file is text (a spec has none)"};
    if (size > cap)
        return NotAVersionFile{1, utf16 ? "is UTF-16 and larger than " + std::to_string(cap) +
                                              " bytes (save it as UTF-8, which may hold 8 KiB)"
                                        : std::string("larger than 8 KiB")};
    return std::nullopt;
}

const char* ActiveSpec::origin_name() const {
    switch (origin) {
        case Origin::env: return "env";
        case Origin::file: return "file";
        case Origin::global: return "global";
        case Origin::system: return "system";
    }
    return "system";
}

std::string ActiveSpec::describe() const {
    switch (origin) {
        case Origin::env: return "CUDAENV_VERSION";
        case Origin::file: return fsx::to_utf8(file);
        case Origin::global: return "global default";
        case Origin::system: return "default";
    }
    return "default";
}

Spec parse_dot_cudaenv(const std::string& text, const std::filesystem::path& path) {
    auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string_view l = lines[i];
        if (auto hash = l.find('#'); hash != std::string_view::npos) l = l.substr(0, hash);
        l = str::trim(l);
        if (l.empty()) continue;
        auto spec = Spec::parse(l);
        if (!spec) bad_file(path, i + 1, "not a spec" + quoted_content(path, l));
        return *spec;
    }
    bad_file(path, 1, "no spec in the file");
}

std::optional<Spec> parse_tool_versions(const std::string& text, const std::filesystem::path& path) {
    std::optional<std::string> cuda, cudnn;
    size_t cuda_line = 0, cudnn_line = 0;
    auto lines = lines_of(text);
    for (size_t i = 0; i < lines.size(); ++i) {
        std::string_view l = lines[i];
        if (auto hash = l.find('#'); hash != std::string_view::npos) l = l.substr(0, hash);
        l = str::trim(l);
        auto sp = l.find_first_of(" \t");
        if (sp == std::string_view::npos) continue;
        auto tool = l.substr(0, sp);
        // asdf allows fallbacks ("cuda 12.4 11.8"): the first one is used.
        auto rest = str::trim(l.substr(sp));
        auto value = rest.substr(0, rest.find_first_of(" \t"));
        if (tool == "cuda") {
            cuda = std::string(value);
            cuda_line = i + 1;
        } else if (tool == "cudnn") {
            cudnn = std::string(value);
            cudnn_line = i + 1;
        }
    }
    if (!cuda) return std::nullopt;
    // Each value on its own, so the error names the line that is wrong.
    auto cuda_spec = Spec::parse(*cuda);
    if (!cuda_spec) bad_file(path, cuda_line, "not a cuda version" + quoted_content(path, *cuda));
    if (!cudnn) return cuda_spec;
    std::optional<Spec> spec;
    if (cudnn->find('+') == std::string::npos) spec = Spec::parse(*cuda + "+" + *cudnn);
    if (!spec) bad_file(path, cudnn_line, "not a cudnn version for this cuda" + quoted_content(path, *cudnn));
    return spec;
}

std::optional<VersionFile> find_version_file(const std::filesystem::path& start) {
    auto dir = fsx::absolute_normal(start);
    for (;;) {
        auto dot = dir / ".cudaenv";
        if (fsx::is_file(dot)) {
            auto head = read_head(dot);
            if (!head) bad_file(dot, 1, "cannot be read");
            if (auto no = not_a_version_file(head->first, head->second)) bad_file(dot, no->line, no->why);
            return VersionFile{dot, parse_dot_cudaenv(head->first, dot)};
        }
        // One that is no text, or too long, is not a version file: skipped.
        auto tv = dir / ".tool-versions";
        if (fsx::is_file(tv)) {
            if (auto head = read_head(tv); head && !not_a_version_file(head->first, head->second))
                if (auto spec = parse_tool_versions(head->first, tv)) return VersionFile{tv, *spec};
        }
        auto parent = dir.parent_path();
        if (parent == dir || parent.empty()) return std::nullopt;
        dir = parent;
    }
}

ActiveSpec resolve_active(const std::filesystem::path& cwd, const std::optional<std::string>& env_version,
                          const std::optional<std::string>& global) {
    if (env_version && !env_version->empty()) {
        auto spec = Spec::parse(*env_version);
        if (!spec)
            throw Error("CUDAENV_VERSION holds an invalid spec: '" + str::visible(env_version->substr(0, 60)) + "'",
                        "run `cudaenv deactivate` or unset CUDAENV_VERSION");
        return {*spec, Origin::env, {}};
    }
    if (auto vf = find_version_file(cwd)) return {vf->spec, Origin::file, vf->path};
    if (global) {
        auto spec = Spec::parse(*global);
        if (!spec)
            throw Error("the global default is an invalid spec: '" + str::visible(global->substr(0, 60)) + "'",
                        "run `cudaenv global <spec>` to replace it");
        return {*spec, Origin::global, {}};
    }
    return {*Spec::parse("system"), Origin::system, {}};
}

}  // namespace cudaenv
