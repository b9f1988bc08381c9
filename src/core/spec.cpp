#include "core/spec.hpp"

#include "util/error.hpp"

namespace cudaenv {

std::optional<Spec> Spec::parse(std::string_view text) {
    Spec s;
    if (text == "system") {
        s.system = true;
        return s;
    }
    auto plus = text.find('+');
    auto cuda_part = text.substr(0, plus);
    auto cuda = Version::parse(cuda_part);
    if (!cuda) return std::nullopt;
    s.cuda = *cuda;
    if (plus != std::string_view::npos) {
        auto rest = text.substr(plus + 1);
        if (rest == "none") {
            s.cudnn_kind = Cudnn::none;
        } else {
            auto cudnn = Version::parse(rest);
            if (!cudnn) return std::nullopt;
            s.cudnn_kind = Cudnn::version;
            s.cudnn = *cudnn;
        }
    }
    return s;
}

Spec Spec::parse_or_throw(std::string_view text) {
    auto s = parse(text);
    if (!s) {
        std::string shown(text.substr(0, 80));
        for (auto& c : shown)
            if (static_cast<unsigned char>(c) < 0x20) c = '?';
        throw UsageError("invalid spec '" + shown + "'",
                         "a spec looks like 11.8, 12, 12.4.1, 11.8+8.9.7, 12+9, 12.4+none or system");
    }
    return *s;
}

std::string Spec::str() const {
    if (system) return "system";
    std::string out = cuda.str();
    if (cudnn_kind == Cudnn::none) out += "+none";
    if (cudnn_kind == Cudnn::version) out += "+" + cudnn.str();
    return out;
}

}  // namespace cudaenv
