#include "shell/template.hpp"

#include <stdexcept>

#include "shell/backend.hpp"
#include "util/embedded.hpp"
#include "util/strings.hpp"

namespace cudaenv {

TemplateArgs& TemplateArgs::value(const std::string& name, std::string_view v) {
    values_[name] = shell_.quote(v);
    return *this;
}

TemplateArgs& TemplateArgs::list(const std::string& name, const std::vector<std::string>& vs, std::string_view sep) {
    std::string out;
    for (const auto& v : vs) {
        if (!out.empty()) out += sep;
        out += shell_.quote(v);
    }
    values_[name] = out;
    return *this;
}

TemplateArgs& TemplateArgs::quoted(const std::string& name, std::string q) {
    values_[name] = std::move(q);
    return *this;
}

TemplateArgs& TemplateArgs::flag(const std::string& name, bool on) {
    if (on) flags_.insert(name);
    else flags_.erase(name);
    return *this;
}

namespace {

bool is_name_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Replaces every @NAME@ (NAME: A-Z, then A-Z 0-9 _) in one line.
std::string substitute(std::string_view line, const TemplateArgs& args, std::string_view path) {
    std::string out;
    size_t i = 0;
    while (i < line.size()) {
        if (line[i] == '@' && i + 1 < line.size() && line[i + 1] >= 'A' && line[i + 1] <= 'Z') {
            size_t j = i + 1;
            while (j < line.size() && is_name_char(line[j])) ++j;
            if (j < line.size() && line[j] == '@') {
                auto name = line.substr(i + 1, j - i - 1);
                auto it = args.values().find(name);
                if (it == args.values().end())
                    throw std::logic_error("shell/" + std::string(path) + ": no value for @" + std::string(name) + "@");
                out += it->second;
                i = j + 1;
                continue;
            }
        }
        out += line[i++];
    }
    return out;
}

// The directive of a line "# @word rest" (leading blanks allowed), or "".
std::string_view directive(std::string_view line, std::string_view& rest) {
    auto t = str::trim(line);
    if (!t.starts_with("# @")) return {};
    t.remove_prefix(3);
    auto sp = t.find(' ');
    auto word = t.substr(0, sp);
    rest = sp == std::string_view::npos ? std::string_view{} : str::trim(t.substr(sp));
    if (word == "if" || word == "end" || word == "include") return word;
    return {};
}

void fill_into(std::string& out, std::string_view path, const TemplateArgs& args, int depth) {
    if (depth > 4) throw std::logic_error("shell/" + std::string(path) + ": includes nest too deep");
    auto text = embedded::find(path);
    if (!text) throw std::logic_error("shell/" + std::string(path) + " is not embedded");
    std::vector<bool> keep;  // one entry per open # @if
    auto kept = [&] {
        for (bool k : keep)
            if (!k) return false;
        return true;
    };
    std::string_view rest_of_text = *text;
    while (!rest_of_text.empty()) {
        auto nl = rest_of_text.find('\n');
        auto line = rest_of_text.substr(0, nl);
        rest_of_text = nl == std::string_view::npos ? std::string_view{} : rest_of_text.substr(nl + 1);
        // .gitattributes checks *.cmd out with CRLF; templates are read as LF
        // (cmd's backend writes CRLF itself).
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        std::string_view arg;
        auto d = directive(line, arg);
        if (d == "if") {
            keep.push_back(args.has_flag(arg));
        } else if (d == "end") {
            if (keep.empty()) throw std::logic_error("shell/" + std::string(path) + ": # @end without # @if");
            keep.pop_back();
        } else if (!kept()) {
            continue;
        } else if (d == "include") {
            fill_into(out, arg, args, depth + 1);
        } else {
            out += substitute(line, args, path);
            out += '\n';
        }
    }
    if (!keep.empty()) throw std::logic_error("shell/" + std::string(path) + ": # @if without # @end");
}

}  // namespace

std::string fill_template(std::string_view path, const TemplateArgs& args) {
    std::string out;
    fill_into(out, path, args, 0);
    return out;
}

}  // namespace cudaenv
