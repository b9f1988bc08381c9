#pragma once
// A spec names a pair: "11.8", "12+9", "11.8+8.9.7", "12.4+none" or "system".
// Either version may carry an origin that tells apart two installs of one
// version: "13.0@pip", "12.6@store+9.8@system", "12.6@cuda-12.6" (docs/specs.md).
#include <optional>
#include <string>
#include <string_view>

#include "core/version.hpp"

namespace cudaenv {

struct Spec {
    enum class Cudnn { default_, version, none };

    bool system = false;
    Version cuda;                   // prefix to match (empty for system)
    Cudnn cudnn_kind = Cudnn::default_;
    Version cudnn;                  // when cudnn_kind == version
    std::string cuda_origin;        // "" = any install; else one of its origin names
    std::string cudnn_origin;       // likewise, when cudnn_kind == version

    // Strict: digits, dots, one '+', "none", "system", and after a version
    // '@' with an origin of [a-z0-9._-] (a letter or digit first, at most 32);
    // nothing else, so a spec read from a file can never smuggle shell
    // syntax. nullopt when malformed.
    static std::optional<Spec> parse(std::string_view text);
    // Like parse, but throws UsageError with a hint showing valid forms.
    static Spec parse_or_throw(std::string_view text);

    std::string str() const;
    static bool valid_origin(std::string_view origin);
    bool operator==(const Spec&) const = default;
};

}  // namespace cudaenv
