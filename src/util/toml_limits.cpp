#include "util/toml_limits.hpp"

#include <vector>

#include "util/strings.hpp"

namespace cudaenv {

namespace {

bool bare_key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

class Scanner {
public:
    Scanner(std::string_view text, const TomlLimits& limits) : t_(text), lim_(limits) {}

    std::optional<TomlLimitIssue> run() {
        if (t_.size() > lim_.max_bytes)
            return TomlLimitIssue{1, 1, "the file is larger than " + std::to_string(lim_.max_bytes >> 20) + " MiB"};
        if (t_.starts_with(str::utf8_bom)) i_ = str::utf8_bom.size();  // which toml++ skips
        bool line_start = true;  // only spaces/tabs so far on this line
        while (i_ < t_.size()) {
            char c = t_[i_];
            if (c == '\n') {
                if (expect_ == Expect::after_equals) return missing_value();
                newline();
                line_start = true;
                reset_run();
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r') {  // whitespace does not end a dotted key
                ++i_;
                continue;
            }
            if (auto issue = ascii_here()) return issue;
            if (line_start && depth_ == 0 && c == '[') {
                if (auto issue = header()) return issue;
            }
            line_start = false;
            if (c == '#') {
                if (expect_ == Expect::after_equals) return missing_value();
                while (i_ < t_.size() && t_[i_] != '\n') ++i_;
                continue;
            }
            if (c == '"' || c == '\'') {
                expect_ = Expect::nothing;
                if (auto issue = part_start()) return issue;
                if (auto issue = string(c)) return issue;
                continue;
            }
            if (bare_key_char(c)) {
                expect_ = Expect::nothing;
                if (auto issue = part_start()) return issue;
                size_t begin = i_;
                while (i_ < t_.size() && bare_key_char(t_[i_])) ++i_;
                if (i_ - begin > lim_.max_bare_bytes) return issue_at(begin, "an unquoted word is too long");
                continue;
            }
            if (c == '.') {
                after_dot_ = true;
                ++i_;
                continue;
            }
            // Where a value must come, toml++ asserts (instead of reporting an
            // error) on ',', ']' or '}' (`a = ]`, `[1,,2]`, `[1,}`).
            if ((c == ',' || c == ']' || c == '}') && expect_ != Expect::nothing &&
                !(c == ']' && expect_ == Expect::in_array))
                return missing_value();
            if (c == '[' || c == '{') {
                if (++depth_ > lim_.max_depth)
                    return issue_at(i_, "nested more than " + std::to_string(lim_.max_depth) + " levels deep");
                open_.push_back(c);
            } else if ((c == ']' || c == '}') && depth_ > 0) {
                --depth_;
                if (!open_.empty()) open_.pop_back();
            }
            expect_ = c == '=' ? Expect::after_equals
                      : c == '[' || (c == ',' && !open_.empty() && open_.back() == '[') ? Expect::in_array
                                                                                        : Expect::nothing;
            reset_run();
            ++i_;
        }
        if (expect_ == Expect::after_equals) return missing_value();
        return std::nullopt;
    }

private:
    // A value must follow '=' (on its line), and '[' or ',' in an array.
    enum class Expect { nothing, after_equals, in_array };
    Expect expect_ = Expect::nothing;
    std::vector<char> open_;  // the '[' and '{' not yet closed
    TomlLimitIssue missing_value() const { return issue_at(i_, "a value is missing"); }
    std::string_view t_;
    const TomlLimits& lim_;
    size_t i_ = 0;
    size_t line_ = 1;
    size_t line_begin_ = 0;
    size_t depth_ = 0;
    size_t parts_ = 0;        // parts of the current dotted run
    bool after_dot_ = false;  // a '.' was the last token

    void newline() {
        ++i_;
        ++line_;
        line_begin_ = i_;
    }
    void reset_run() {
        parts_ = 0;
        after_dot_ = false;
    }
    TomlLimitIssue issue_at(size_t pos, std::string reason) const {
        // `pos` is on the current line except for a string that ran across lines.
        return {line_, pos >= line_begin_ ? pos - line_begin_ + 1 : 1, std::move(reason)};
    }
    // A key part, a string or a word starts: it continues a dotted run only
    // after a '.'; otherwise it begins a new run.
    std::optional<TomlLimitIssue> part_start() {
        parts_ = after_dot_ ? parts_ + 1 : 1;
        after_dot_ = false;
        if (parts_ > lim_.max_key_parts)
            return issue_at(i_, "a dotted key has more than " + std::to_string(lim_.max_key_parts) + " parts");
        return std::nullopt;
    }
    // toml++ 3.3 asks "is this whitespace?" of the character after a value, a
    // bare key or a line-ending backslash, and for most non-ASCII code points
    // that question reaches its TOML_UNREACHABLE (undefined behaviour; found by
    // the fuzz targets under UBSan). TOML allows non-ASCII text only inside
    // strings and comments anyway, so anything else is refused here.
    std::optional<TomlLimitIssue> ascii_here() const {
        if (i_ < t_.size() && static_cast<unsigned char>(t_[i_]) >= 0x80)
            return issue_at(i_, "a non-ASCII character outside a string or comment");
        return std::nullopt;
    }
    // At a backslash in a multi-line basic string: only spaces or tabs follow
    // it to the end of the line. Leaves i_ after the backslash when so.
    bool line_ending_backslash() {
        size_t j = i_ + 1;
        while (j < t_.size() && (t_[j] == ' ' || t_[j] == '\t' || t_[j] == '\r')) ++j;
        if (j >= t_.size() || t_[j] != '\n') return false;
        i_ += 1;
        return true;
    }
    // "[" or "[[" at the start of a line: toml++ asserts (instead of
    // reporting an error) unless a key or "]" follows.
    std::optional<TomlLimitIssue> header() {
        size_t j = i_ + 1;
        if (j < t_.size() && t_[j] == '[') ++j;
        while (j < t_.size() && (t_[j] == ' ' || t_[j] == '\t')) ++j;
        if (j >= t_.size()) return issue_at(i_, "a table header is not closed");
        char c = t_[j];
        if (bare_key_char(c) || c == '"' || c == '\'' || c == ']') return std::nullopt;
        return issue_at(j, "a table header must start with a key");
    }
    // A string starting at i_ with quote q (one or three); leaves i_ after it.
    std::optional<TomlLimitIssue> string(char q) {
        size_t begin = i_;
        bool multi = t_.substr(i_, 3) == std::string(3, q);
        bool escapes = q == '"';
        i_ += multi ? 3 : 1;
        while (i_ < t_.size()) {
            char c = t_[i_];
            if (escapes && c == '\\') {
                if (multi && line_ending_backslash()) {
                    // TOML drops the newlines and whitespace that follow; toml++
                    // asks of the next character whether it is whitespace.
                    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\r' || t_[i_] == '\n'))
                        t_[i_] == '\n' ? newline() : void(++i_);
                    if (auto issue = ascii_here()) return issue;
                    continue;
                }
                if (i_ + 1 < t_.size() && t_[i_ + 1] == '\n') {
                    ++i_;
                    newline();
                } else {
                    i_ += 2;
                }
                continue;
            }
            if (c == '\n') {
                if (!multi) return issue_at(begin, "a string is not closed on its line");
                newline();
                continue;
            }
            if (c == q) {
                if (!multi) {
                    ++i_;
                    return std::nullopt;
                }
                if (t_.substr(i_, 3) == std::string(3, q)) {
                    i_ += 3;
                    // Up to two more quotes belong to the content ("""a""""").
                    for (int k = 0; k < 2 && i_ < t_.size() && t_[i_] == q; ++k) ++i_;
                    return std::nullopt;
                }
            }
            ++i_;
        }
        return issue_at(begin, "a string is not closed");
    }
};

}  // namespace

std::optional<TomlLimitIssue> check_toml_limits(std::string_view text, const TomlLimits& limits) {
    return Scanner(text, limits).run();
}

}  // namespace cudaenv
