#pragma once
// Fills the shell files under shell/ (embedded by cmake/Embed.cmake under
// their path relative to shell/, e.g. "bash/init.bash"). A template is shell
// code with three kinds of marks:
//   @NAME@           replaced by a value that went through Shell::quote()
//   # @if NAME ... # @end     kept only when the flag NAME is set (whole lines)
//   # @include PATH  replaced by that embedded file, filled the same way
// Nothing else is ever spliced in, so a value can never become code.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace cudaenv {

class Shell;

class TemplateArgs {
public:
    explicit TemplateArgs(const Shell& shell) : shell_(shell) {}
    // @name@ becomes shell.quote(value).
    TemplateArgs& value(const std::string& name, std::string_view value);
    // @name@ becomes every value quoted, joined by `sep` (e.g. "|" for a case pattern).
    TemplateArgs& list(const std::string& name, const std::vector<std::string>& values, std::string_view sep);
    // @name@ becomes `quoted`, which the caller quoted for a context that
    // Shell::quote() does not cover (cmd's AutoRun command line).
    TemplateArgs& quoted(const std::string& name, std::string quoted);
    TemplateArgs& flag(const std::string& name, bool on = true);

    const std::map<std::string, std::string, std::less<>>& values() const { return values_; }
    bool has_flag(std::string_view name) const { return flags_.find(name) != flags_.end(); }

private:
    const Shell& shell_;
    std::map<std::string, std::string, std::less<>> values_;
    std::set<std::string, std::less<>> flags_;
};

// The filled template shell/<path>. Throws std::logic_error for a missing
// file, an unknown @NAME@ or an unbalanced # @if: those are bugs, caught by
// the golden tests.
std::string fill_template(std::string_view path, const TemplateArgs& args);

}  // namespace cudaenv
