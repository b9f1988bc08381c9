// `export dotenv` and `export github-env`: every value of the pair's intent
// as planned in the caller's environment (PATH in full), as KEY=value lines
// or GitHub's NAME<<DELIMITER blocks.
#include <algorithm>
#include <cstdio>
#include <random>

#include "export/format_parts.hpp"
#include "export/formats.hpp"
#include "util/error.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "util/user_file.hpp"

namespace cudaenv::exporting {

namespace {

namespace fs = std::filesystem;

const char* block_begin = "# >>> cudaenv export: written by `cudaenv export dotenv`; re-running it rewrites this block >>>";
const char* block_end = "# <<< cudaenv export <<<";
constexpr size_t max_env_file_bytes = 16u << 20;

// Each variable of the pair's intent with its value here (unset ones have none to write).
std::vector<std::pair<std::string, std::string>> values(const PairVars& p) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto* e : p.intent())
        if (e->value) out.emplace_back(e->name, *e->value);
    return out;
}

// What Python's str.isspace() calls whitespace: python-dotenv strips it from
// a value's ends, and `\s+#` starts a comment.
bool python_space(char32_t c) {
    return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

void refuse_folder(const fs::path& out, const char* format, const char* hint) {
    std::error_code ec;
    if (fs::is_directory(out, ec))
        throw Error("'" + fsx::to_utf8(out) + "' is a folder; " + format + " writes a file", hint);
}

// The block's place in `text`: an end marker line and the nearest begin
// marker line before it (a stray begin marker above stays the user's).
std::optional<std::pair<size_t, size_t>> find_block(const std::string& text) {
    std::optional<size_t> begin;
    for (size_t at = 0; at < text.size();) {
        auto nl = text.find('\n', at);
        size_t next = nl == std::string::npos ? text.size() : nl + 1;
        std::string_view line(text.data() + at, (nl == std::string::npos ? text.size() : nl) - at);
        if (line.ends_with('\r')) line.remove_suffix(1);
        if (line == block_begin) begin = at;
        else if (line == block_end && begin) return std::make_pair(*begin, next);
        at = next;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> dotenv_misread(std::string_view value, PathStyle style) {
    // Written as it is, without quotes: docker --env-file takes everything
    // after '=' literally (quotes included) and refuses bytes that are not
    // UTF-8; python-dotenv (VS Code's python.envFile) strips blanks at the
    // ends, reads a leading quote as quoting, ` #` as a comment and expands
    // ${...}; systemd's EnvironmentFile= reads a backslash as an escape.
    auto cps = str::utf8_code_points(value);
    if (!cps) return "bytes that are not UTF-8, which docker --env-file and python-dotenv refuse";
    if (!cps->empty() && (python_space(cps->front()) || python_space(cps->back())))
        return "a blank at its start or end, which python-dotenv and systemd strip";
    if (value.starts_with('"') || value.starts_with('\''))
        return "a quote at its start, which python-dotenv reads as quoting and docker keeps";
    if (value.find("${") != std::string_view::npos)
        return "'${', which python-dotenv's default reading (VS Code's python.envFile) expands as a variable";
    for (size_t i = 1; i < cps->size(); ++i)
        if ((*cps)[i] == U'#' && python_space((*cps)[i - 1]))
            return "a blank before '#', which python-dotenv reads as the start of a comment";
    if (style == PathStyle::posix && value.find('\\') != std::string_view::npos)
        return "a backslash, which systemd's EnvironmentFile= reads as an escape";
    return std::nullopt;
}

std::string render_dotenv(const PairVars& p, const Options&) {
    std::string block = std::string(block_begin) + "\n# cudaenv pair " + p.spec + "\n";
    for (const auto& [name, value] : values(p)) block += name + "=" + value + "\n";
    return block + block_end + "\n";
}

std::string write_dotenv(const std::vector<PairVars>& pairs, const Options& o) {
    if (pairs.size() != 1) throw UsageError("`export dotenv` writes one pair", "name one spec");
    const auto block = render_dotenv(pairs.front(), o);
    if (!o.out) return block;
    refuse_folder(*o.out, "dotenv", "name a file with -o, e.g. -o .env");
    // An existing file keeps every line outside cudaenv's block; parallel exports take turns.
    fsx::UserFileLock lock(*o.out);
    auto old = fsx::read_user_file(*o.out, max_env_file_bytes, "dotenv");
    std::string text = block;
    if (old && !old->empty()) {
        if (auto at = find_block(*old))
            text = old->substr(0, at->first) + block + old->substr(at->second);
        else
            text = *old + (old->back() == '\n' ? "" : "\n") + block;
    }
    fsx::write_user_file(*o.out, text);
    say_wrote("the dotenv block of " + pairs.front().spec, *o.out);
    return {};
}

std::string render_github_env(const PairVars& p, const Options&) {
    const auto vars = values(p);
    // NAME<<DELIMITER lines, as GitHub documents for values that may hold
    // line breaks; the delimiter is random and checked against every value.
    std::random_device rd;
    std::string delim;
    auto clashes = [&](const std::string& d) {
        return std::any_of(vars.begin(), vars.end(), [&](const auto& kv) { return kv.second.find(d) != std::string::npos; });
    };
    do {
        char buf[32];
        std::snprintf(buf, sizeof buf, "ghadelimiter_%08x%08x", rd(), rd());
        delim = buf;
    } while (clashes(delim));
    std::string out;
    for (const auto& [name, value] : vars) out += name + "<<" + delim + "\n" + value + "\n" + delim + "\n";
    return out;
}

std::string write_github_env(const std::vector<PairVars>& pairs, const Options& o) {
    if (pairs.size() != 1) throw UsageError("`export github-env` writes one pair", "name one spec");
    auto out = render_github_env(pairs.front(), o);
    if (!o.out) return out;
    // $GITHUB_ENV is shared by every step: appended in one write, never replaced.
    refuse_folder(*o.out, "github-env", "use -o \"$GITHUB_ENV\"");
    fsx::append_user_file(*o.out, out);
    say_wrote(std::to_string(values(pairs.front()).size()) + " variables of " + pairs.front().spec, *o.out);
    return {};
}

}  // namespace cudaenv::exporting
