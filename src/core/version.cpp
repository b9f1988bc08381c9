#include "core/version.hpp"

#include "util/strings.hpp"

namespace cudaenv {

std::optional<Version> Version::parse(std::string_view s) {
    // Up to four dot-separated numbers of at most 9 digits each. Read in
    // place: versions are parsed for every adopted folder on every switch.
    std::vector<int> parts;
    parts.reserve(4);
    for (size_t start = 0;;) {
        size_t dot = s.find('.', start);
        auto f = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
        int v = 0;
        if (parts.size() == 4 || f.size() > 9 || !str::parse_int(f, v)) return std::nullopt;
        parts.push_back(v);
        if (dot == std::string_view::npos) break;
        start = dot + 1;
    }
    return Version(std::move(parts));
}

std::string Version::str() const {
    std::string out;
    for (size_t i = 0; i < parts_.size(); ++i) {
        if (i) out += '.';
        out += std::to_string(parts_[i]);
    }
    return out;
}

Version Version::prefix(size_t n) const {
    return Version(std::vector<int>(parts_.begin(), parts_.begin() + static_cast<long>(std::min(n, parts_.size()))));
}

bool Version::matches(const Version& prefix) const {
    if (prefix.parts_.size() > parts_.size()) return false;
    for (size_t i = 0; i < prefix.parts_.size(); ++i)
        if (prefix.parts_[i] != parts_[i]) return false;
    return true;
}

std::strong_ordering Version::operator<=>(const Version& o) const {
    size_t n = std::max(parts_.size(), o.parts_.size());
    for (size_t i = 0; i < n; ++i) {
        int a = i < parts_.size() ? parts_[i] : -1;
        int b = i < o.parts_.size() ? o.parts_[i] : -1;
        if (a != b) return a <=> b;
    }
    return std::strong_ordering::equal;
}

}  // namespace cudaenv
