#include "core/spec.hpp"

#include "util/error.hpp"
#include "util/strings.hpp"

namespace cudaenv {

bool Spec::valid_origin(std::string_view o) {
    if (o.empty() || o.size() > 32) return false;
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!alnum(o[0])) return false;
    for (char c : o)
        if (!alnum(c) && c != '.' && c != '_' && c != '-') return false;
    return true;
}

namespace {

// "13.0@pip" -> version 13.0, origin "pip".
bool parse_part(std::string_view text, Version& v, std::string& origin) {
    auto at = text.find('@');
    auto parsed = Version::parse(text.substr(0, at));
    if (!parsed) return false;
    v = *parsed;
    if (at != std::string_view::npos) {
        origin = std::string(text.substr(at + 1));
        if (!Spec::valid_origin(origin)) return false;
    }
    return true;
}

}  // namespace

std::optional<Spec> Spec::parse(std::string_view text) {
    Spec s;
    if (text == "system") {
        s.system = true;
        return s;
    }
    auto plus = text.find('+');
    if (!parse_part(text.substr(0, plus), s.cuda, s.cuda_origin)) return std::nullopt;
    if (plus != std::string_view::npos) {
        auto rest = text.substr(plus + 1);
        if (rest == "none") {
            s.cudnn_kind = Cudnn::none;
        } else {
            if (!parse_part(rest, s.cudnn, s.cudnn_origin)) return std::nullopt;
            s.cudnn_kind = Cudnn::version;
        }
    }
    return s;
}

Spec Spec::parse_or_throw(std::string_view text) {
    auto s = parse(text);
    if (!s) {
        throw UsageError("invalid spec '" + str::visible(text.substr(0, 80)) + "'",
                         "a spec looks like 11.8, 12, 12.4.1, 11.8+8.9.7, 12+9, 12.4+none, 13.0@pip or system");
    }
    return *s;
}

std::string Spec::str() const {
    if (system) return "system";
    std::string out = cuda.str();
    if (!cuda_origin.empty()) out += "@" + cuda_origin;
    if (cudnn_kind == Cudnn::none) out += "+none";
    if (cudnn_kind == Cudnn::version) out += "+" + cudnn.str() + (cudnn_origin.empty() ? "" : "@" + cudnn_origin);
    return out;
}

}  // namespace cudaenv
